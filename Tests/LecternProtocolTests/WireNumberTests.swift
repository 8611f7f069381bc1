// WireNumberTests.swift: the wire's one decimal reader and writer, against the
// standard library's readers and the spelling replies have always had.

import Foundation
import LecternRandom
import Testing
@testable import LecternProtocol

@Suite struct WireNumberTests {
    private func written(_ value: Int) -> String {
        var bytes: [UInt8] = []
        bytes.write(decimal: value)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func shortLine(_ body: (inout ShortLine) -> Void) -> String {
        var bytes: [UInt8] = []
        ShortLine.append(to: &bytes, body)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The spelling of points before the one writer (Wire.number's
    /// Strings), kept here as the reference that replies must not drift
    /// from (below 10^15; above, see ``largeNumbersAreWholeDigitsWithoutAnExponent``).
    private func formerSpelling(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        guard abs(value) < 1e15 else { return String(value.rounded()) }
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100
        let fraction = abs(hundredths % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    // MARK: Writing

    @Test func wholeNumbersAreTheirDigits() {
        var random = SplitMix64(seed: 0xDEC)
        var values = [0, 1, -1, 9, 10, -10, 99, 100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 1...18 {
            power *= 10
            values += [power, power - 1, -power, -(power - 1)]
        }
        for _ in 0..<20_000 { values.append(Int(bitPattern: UInt(random.next())) >> Int(random.next() % 64)) }
        for value in values {
            #expect(written(value) == String(value), "\(value)")
            #expect(WireNumber.text(value) == String(value))
            #expect(shortLine { $0.write("n="); $0.write(decimal: value) } == "n=\(value)", "\(value)")
        }
    }

    @Test func pointsHaveAtMostTwoDecimals() {
        let cases: [(Double, String)] = [
            (180.5, "180.5"), (17, "17"), (-3.25, "-3.25"), (0.004, "0"), (-0.5, "-0.5"), (1.05, "1.05"),
            (-12.1, "-12.1"), (-0.001, "0"), (-0.0, "0"), (0, "0"), (0.125, "0.13"), (-0.125, "-0.13"),
            (0.07, "0.07"), (-0.07, "-0.07"), (-1.5, "-1.5"),
            (999_999_999_999, "999999999999"), (123_456_789.987, "123456789.99"),
            // From 10^15 on: whole digits, never an exponent (PROTOCOL.md, "Values").
            (1e15, "1000000000000000"), (-1e15, "-1000000000000000"), (1e16, "10000000000000000"),
            (1e23, "100000000000000000000000"), (-1e23, "-100000000000000000000000"),
            (1e15 + 0.5, "1000000000000001"), (1234567890123456.7, "1234567890123457"),
            (12345678901234567890, "12345678901234567000"),
            (1e300, "1" + String(repeating: "0", count: 300)), (-1e300, "-1" + String(repeating: "0", count: 300)),
            (.greatestFiniteMagnitude, "17976931348623157" + String(repeating: "0", count: 292)),
            // Never let in by a reader, written as 0 all the same.
            (.nan, "0"), (.infinity, "0"), (-.infinity, "0"),
        ]
        for (value, text) in cases {
            #expect(WireNumber.text(value) == text, "\(value)")
            // A short line holds 256 bytes (TAP's numbers are bounded by its coordinates').
            guard text.utf8.count <= 64 else { continue }
            #expect(shortLine { $0.write(number: value) } == text, "\(value)")
        }
    }

    @Test func pointsAreSpelledAsRepliesAlwaysSpelledThem() {
        var random = SplitMix64(seed: 0x5EED)
        for i in 0..<50_000 {
            let scale = [1.0, 0.01, 100, 1e6, 1e13, 1e16, 1e9][i % 7]
            let value = (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * scale
            guard abs(value) < 1e15 else { continue }
            #expect(WireNumber.text(value) == formerSpelling(value), "\(value)")
        }
    }

    /// From 10^15 on a point is its whole number in plain digits (issue 18:
    /// `height=1e+308`, `distance=1e+23` went out against the documented
    /// format): no exponent, no point, as many digits as the number has,
    /// and reading them back gives the same double.
    @Test func largeNumbersAreWholeDigitsWithoutAnExponent() {
        var random = SplitMix64(seed: 0xB16)
        for i in 0..<20_000 {
            let exponent = Double(15 + Int(random.next() % 294))
            let magnitude = (1 + Double(random.next() >> 11) / Double(1 << 53) * 9)
            let value = (i % 2 == 0 ? 1 : -1) * magnitude * pow(10, exponent)
            guard value.isFinite else { continue }
            let text = WireNumber.text(value)
            #expect(!text.contains("e") && !text.contains("."), "\(value): \(text)")
            #expect(Double(text) == value.rounded(), "\(value): \(text)")
            let digits = text.utf8.filter { $0 != UInt8(ascii: "-") }.count
            #expect(digits == Int(log10(value.magnitude).rounded(.down)) + 1 || digits == Int(log10(value.magnitude).rounded(.down)) + 2, "\(value): \(text)")
        }
    }

    // MARK: Reading whole numbers

    @Test func wholeNumbersReadAsIntParsingDoes() {
        var random = SplitMix64(seed: 0x1A7)
        let alphabet = Array("0123456789+- x".utf8)
        for _ in 0..<50_000 {
            let length = Int(random.next() % 6)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(WireNumber.integer(bytes) == Int(text), "\(text)")
        }
        for value in [0, 7, -7, Int.max, Int.min, 1 << 40] {
            #expect(WireNumber.integer(Array(String(value).utf8)) == value)
        }
    }

    @Test func wholeNumberEdges() {
        #expect(WireNumber.integer(Array("+5".utf8)) == 5)
        #expect(WireNumber.integer(Array("-0".utf8)) == 0)
        #expect(WireNumber.integer(Array("9223372036854775807".utf8)) == Int.max)
        #expect(WireNumber.integer(Array("-9223372036854775808".utf8)) == Int.min)
        #expect(WireNumber.integer(Array("9223372036854775808".utf8)) == nil)
        #expect(WireNumber.integer(Array("-9223372036854775809".utf8)) == nil)
        #expect(WireNumber.integer(Array("99999999999999999999".utf8)) == nil)
        #expect(WireNumber.integer(Array((String(repeating: "0", count: 200) + "42").utf8)) == 42)
        for text in ["", "-", "+", "--1", "+-1", "1 ", " 1", "1.0", "1e3", "0x10", "١"] {
            #expect(WireNumber.integer(Array(text.utf8)) == nil, "\(text)")
        }
        #expect(WireNumber.wholeNumber(Array("0042".utf8)) == 42)
        #expect(WireNumber.wholeNumber(Array("+5".utf8)) == nil)
        #expect(WireNumber.wholeNumber(Array("-5".utf8)) == nil)
        #expect(WireNumber.wholeNumber(Array("18446744073709551615".utf8)) == nil)
        #expect(WireNumber.wholeNumber(Array("".utf8)) == nil)
    }

    // MARK: Reading decimals

    /// Any spelling of a decimal number reads as the standard library reads
    /// it, bit for bit; hexadecimal, `nan`, `inf` and what overflows to
    /// infinity do not read at all.
    @Test func decimalsReadAsDoubleParsingDoes() {
        var random = SplitMix64(seed: 0xD0B1E)
        let alphabet = Array("0123456789.eE+-x".utf8)
        for i in 0..<100_000 {
            let length = 1 + Int(random.next() % (i % 2 == 0 ? 8 : 30))
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            let expected = text.contains("x") ? nil : Double(text).flatMap { $0.isFinite ? $0 : nil }
            #expect(WireNumber.double(bytes)?.bitPattern == expected?.bitPattern, "\(text)")
        }
    }

    @Test func commonSpellingsReadExactly() throws {
        var random = SplitMix64(seed: 0xD0B1F)
        for _ in 0..<50_000 {
            let whole = String(random.next() % 100_000)
            let fraction = String(random.next() % 1_000_000_000)
            let exponent = random.next() % 4 == 0 ? "e" + String(Int(random.next() % 60) - 30) : ""
            let text = (random.next() % 2 == 0 ? "-" : "") + whole + (random.next() % 3 == 0 ? "" : "." + fraction) + exponent
            let value = try #require(WireNumber.double(Array(text.utf8)), "\(text)")
            #expect(value.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test func decimalEdges() throws {
        #expect(WireNumber.double(Array("-0".utf8))?.sign == .minus)
        #expect(WireNumber.double(Array("-0".utf8)) == 0)
        #expect(WireNumber.double(Array("+1.5".utf8)) == 1.5)
        #expect(WireNumber.double(Array(".5".utf8)) == 0.5)
        #expect(WireNumber.double(Array("5.".utf8)) == 5)
        #expect(WireNumber.double(Array("1E3".utf8)) == 1000)
        #expect(WireNumber.double(Array("-.5e-3".utf8)) == -0.0005)
        #expect(WireNumber.double(Array("1e-400".utf8)) == 0)
        #expect(WireNumber.double(Array("1e308".utf8)) == 1e308)
        #expect(WireNumber.double(Array("1e15".utf8)) == 1e15)
        #expect(WireNumber.double(Array("123456789012345678901234567890".utf8)) == 123456789012345678901234567890.0)
        let long = "0." + String(repeating: "3", count: 400)
        #expect(WireNumber.double(Array(long.utf8)) == Double(long))
        for text in ["", "-", "+", ".", "e5", "1e", "1e+", "1e5.5", "1.2.3", "--1", "1 ", " 1", "1,5", "1_000",
                     "nan", "NaN", "inf", "-inf", "infinity", "0x10", "0x1p3", "1e309", "-1e309", "1e99999999999"] {
            #expect(WireNumber.double(Array(text.utf8)) == nil, "\(text)")
        }
    }

    /// What the writer writes, the reader reads back as the value rounded
    /// to hundredths, which the writer then spells the same (up to 10^11,
    /// far beyond any coordinate: further out a double's spacing nears a
    /// hundredth, and the rounding of `value * 100` no longer is exact).
    @Test func pointsRoundTrip() throws {
        var random = SplitMix64(seed: 0x7217)
        for i in 0..<20_000 {
            let scale = [1.0, 100, 1e6, 1e9, 1e11][i % 5]
            let value = (Double(random.next() >> 11) / Double(1 << 53) - 0.5) * scale
            let text = WireNumber.text(value)
            let read = try #require(WireNumber.double(Array(text.utf8)), "\(text)")
            let tolerance: Double = 0.005 * (1 + 1e-9) + abs(value) * 1e-15
            let error: Double = abs(read - value)
            #expect(error <= tolerance, "\(value) \(text)")
            #expect(WireNumber.text(read) == text, "\(value) \(text)")
        }
        for value in [Int.min, Int.max, 0, -1] {
            #expect(WireNumber.integer(Array(WireNumber.text(value).utf8)) == value)
        }
    }
}

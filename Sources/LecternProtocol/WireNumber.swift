// WireNumber.swift: the one reader and the one writer of the wire's numbers,
// whole numbers and points.

/// How numbers are spelled on the wire (protocol/PROTOCOL.md, "Values"),
/// both ways, for every side that speaks it: the daemon's arguments and
/// replies, RESP's lengths, the typewriter's ticks, the load tool.
///
/// Writing:
/// - a whole number is its decimal digits, `-` first when negative
///   (`0`, `-17`, `9223372036854775807`);
/// - a point value is rounded to hundredths and written with at most two
///   decimals, trailing zeros dropped (`180.5`, `17`, `-3.25`, `-0.5`);
///   negative zero and values that round to zero are `0`; NaN and the
///   infinities (which no argument lets in) are `0`. From 10^15 on, where
///   hundredths no longer fit exactly, the value is rounded to a whole
///   number and written in plain digits, never with an exponent: the
///   shortest digits that read back as the same double, padded with zeros
///   (`1e23` is written `100000000000000000000000`, the largest double 309
///   digits). Far beyond any screen; what matters there is that a client's
///   number reader never meets a spelling the protocol does not have.
///
/// Reading:
/// - ``integer(_:)``: `[+-]digits`, any number of digits, nil on overflow
///   (what `Int(String)` reads); ``wholeNumber(_:)``: digits only.
/// - ``double(_:)``: a decimal number `[+-](digits[.digits] | .digits)[(e|E)[+-]digits]`,
///   correctly rounded, nil for anything else: `nan`, `inf`, hexadecimal,
///   spaces, and values beyond the largest double.
///
/// Neither side makes a String for the common spellings.
public enum WireNumber {
    // MARK: Writing

    /// Appends `value` in decimal, `-` first when negative.
    ///
    /// - Complexity: O(digits).
    @inlinable
    public static func write<Sink: ByteSink>(_ value: Int, to sink: inout Sink) {
        if value < 0 { sink.write(byte: UInt8(ascii: "-")) }
        sink.write(digitsOf: value.magnitude)
    }

    /// How many decimal digits `magnitude` has (1 to 20).
    @inlinable
    static func digitCount(_ magnitude: UInt) -> Int {
        var digits = 1
        var bound: UInt = 10
        while magnitude >= bound && digits < 19 {
            digits &+= 1
            bound &*= 10
        }
        // 10^19 and above: 20 digits (10^20 is past UInt.max).
        return magnitude >= bound ? 20 : digits
    }

    /// Writes the `count` digits of `magnitude` at `start`, which must have
    /// room for them; `count` must be ``digitCount(_:)`` of `magnitude`.
    @inlinable
    static func fill(_ start: UnsafeMutablePointer<UInt8>, count: Int, withDigitsOf magnitude: UInt) {
        var magnitude = magnitude
        var at = count
        repeat {
            at &-= 1
            start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while at > 0
    }

    /// Appends `value` as a point value (see the type's summary).
    @inlinable
    public static func write<Sink: ByteSink>(_ value: Double, to sink: inout Sink) {
        guard value.isFinite else {
            sink.write(byte: UInt8(ascii: "0"))
            return
        }
        guard abs(value) < 1e15 else {
            // Rare (never from a screen): not on the fast path.
            writeLarge(value, to: &sink)
            return
        }
        let hundredths = Int((value * 100).rounded())
        // -0.5 has the whole part 0: its sign is written on its own.
        if hundredths < 0 && hundredths > -100 { sink.write(byte: UInt8(ascii: "-")) }
        write(hundredths / 100, to: &sink)
        let fraction = abs(hundredths % 100)
        guard fraction != 0 else { return }
        sink.write(byte: UInt8(ascii: "."))
        sink.write(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 10))
        if fraction % 10 != 0 { sink.write(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)) }
    }

    /// A finite value of at least 10^15 in magnitude, rounded to a whole
    /// number, in plain digits: the shortest round-trip digits (Swift's
    /// `description`, `1e+23`, `1.2345e+20`) with the exponent spelled out
    /// as zeros.
    ///
    /// - Complexity: O(digits), at most 309.
    @usableFromInline
    static func writeLarge<Sink: ByteSink>(_ value: Double, to sink: inout Sink) {
        let shortest = value.rounded().magnitude.description.utf8
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        var wholeDigits = 0
        var seenPoint = false
        var exponent = 0
        var negativeExponent = false
        var inExponent = false
        for byte in shortest {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "."): seenPoint = true
            case UInt8(ascii: "-") where inExponent: negativeExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                    if !seenPoint { wholeDigits += 1 }
                }
            default: break
            }
        }
        // Where the decimal point falls in `digits`: what is after it of a
        // whole number is zeros (Swift writes `1000000000000000.0`).
        let point = wholeDigits + (negativeExponent ? -exponent : exponent)
        if value < 0 { sink.write(byte: UInt8(ascii: "-")) }
        for index in 0..<max(point, 1) {
            sink.write(byte: index < digits.count ? digits[index] : UInt8(ascii: "0"))
        }
    }

    /// `value` as a point value, as text (for replies built as Strings).
    public static func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `value` in decimal, as text.
    public static func text(_ value: Int) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Reading

    /// A whole number `[+-]digits` (leading zeros allowed), or nil for
    /// anything else and for a value beyond `Int`: what `Int(String)`
    /// reads, from bytes.
    ///
    /// - Complexity: O(n).
    @inlinable
    public static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        var digits = bytes[...]
        guard let first = digits.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        if negative || first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard let magnitude = digitValue(digits) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return Int(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// A whole number of digits only (no sign), or nil for anything else
    /// and for a value beyond `Int`.
    ///
    /// - Complexity: O(n).
    @inlinable
    public static func wholeNumber<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard let magnitude = digitValue(bytes[...]), magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// The value of one or more ASCII digits, nil for an empty run, any
    /// other byte, or a value beyond `UInt64`.
    @inlinable
    static func digitValue<Bytes: Collection<UInt8>>(_ digits: Bytes) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow && !carry else { return nil }
            value = sum
        }
        return value
    }

    /// A decimal number (see the type's summary), correctly rounded: the
    /// double that `Double(String)` reads from the same spelling. Nil for
    /// any other spelling and for a result that is not finite.
    ///
    /// Up to 15 digits with a decimal exponent (after the point is
    /// counted) within ±22, the digits and the power of ten are both exact
    /// doubles, so one multiplication or division gives the correctly
    /// rounded result (Clinger's fast path), with no String. Longer or
    /// further spellings, which no client sends in the normal course, are
    /// handed to the standard library's reader once their form is checked.
    ///
    /// - Complexity: O(n).
    @inlinable
    public static func double<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Double? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        guard index != end else { return nil }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative || bytes[index] == UInt8(ascii: "+") { bytes.formIndex(after: &index) }
        var mantissa: UInt64 = 0
        var digits = 0
        var decimals = 0
        var seenPoint = false
        while index != end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                // Past 15 digits the slow path reads them: no overflow here.
                if digits < 15 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                digits &+= 1
                if seenPoint { decimals &+= 1 }
            }
            bytes.formIndex(after: &index)
        }
        guard digits > 0 else { return nil }
        var exponent = 0
        if index != end {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            bytes.formIndex(after: &index)
            guard index != end else { return nil }
            let negativeExponent = bytes[index] == UInt8(ascii: "-")
            if negativeExponent || bytes[index] == UInt8(ascii: "+") { bytes.formIndex(after: &index) }
            guard index != end else { return nil }
            while index != end {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                // Saturated: any exponent this large leaves the fast path.
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(digit) }
                bytes.formIndex(after: &index)
            }
            if negativeExponent { exponent = -exponent }
        }
        let scale = exponent - decimals
        if digits <= 15 && scale >= -22 && scale <= 22 {
            // 10^|scale|, exact (every power of ten to 10^22 is a double).
            var power = 1.0
            for _ in 0..<scale.magnitude { power *= 10 }
            let magnitude = scale < 0 ? Double(mantissa) / power : Double(mantissa) * power
            return negative ? -magnitude : magnitude
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}

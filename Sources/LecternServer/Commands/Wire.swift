// Wire.swift: how numbers, ranges, rects and outlines are written on the wire,
// and how numeric arguments and document ids are read.

import LecternLayout
import LecternProtocol

/// The protocol's value encodings (protocol/PROTOCOL.md, "Values").
///
/// - Numbers: points with at most two decimals, trailing zeros dropped
///   (`180.5`, `17`, `-3.25`).
/// - Ranges: `start..end`, half-open, in the connection's offset unit.
/// - Rects: `x,y,w,h`; a list of rects joins them with `;`.
/// - Outlines: a polygon's points `x,y` joined with `;`; several polygons
///   are joined with `|`.
enum Wire {
    /// A number as the wire writes points (``WireNumber``).
    static func number(_ value: Double) -> String { WireNumber.text(value) }

    static func range(_ range: Range<Int>) -> String { "\(range.lowerBound)..\(range.upperBound)" }

    static func rect(_ rect: Rect) -> String { rects([rect]) }

    static func rects(_ rects: [Rect]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rects.count * 28)
        write(rects: rects, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func outline(_ polygons: [[Point]]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(polygons.reduce(0) { $0 + $1.count } * 14)
        write(outline: polygons, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``rects(_:)`` written as bytes: a watch event carries one geometry
    /// per watcher's view, so these are written straight into bytes, with
    /// no String per number.
    static func write(rects: [Rect], to bytes: inout [UInt8]) {
        for (index, rect) in rects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ";")) }
            bytes.write(number: rect.x)
            bytes.append(UInt8(ascii: ","))
            bytes.write(number: rect.y)
            bytes.append(UInt8(ascii: ","))
            bytes.write(number: rect.width)
            bytes.append(UInt8(ascii: ","))
            bytes.write(number: rect.height)
        }
    }

    /// ``outline(_:)`` written as bytes.
    static func write(outline polygons: [[Point]], to bytes: inout [UInt8]) {
        for (index, polygon) in polygons.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "|")) }
            for (pointIndex, point) in polygon.enumerated() {
                if pointIndex > 0 { bytes.append(UInt8(ascii: ";")) }
                bytes.write(number: point.x)
                bytes.append(UInt8(ascii: ","))
                bytes.write(number: point.y)
            }
        }
    }

    /// A number within `range`, or `ERR NUMBER` naming the argument and
    /// the range (see ``NumberRule/read(_:_:)``, the one reader of numeric
    /// arguments: nothing downstream, layout, hit-testing, the SVG and wire
    /// writers, ever sees an infinity, a NaN or a magnitude no screen has).
    /// `unit` follows the bounds in the sentence (`ms`, `points`).
    static func double(_ text: String, _ name: String, in range: ClosedRange<Double>, unit: String = "") throws -> Double {
        try NumberRule(range, unit: unit).read(text, name)
    }

    /// The longest number argument, in bytes (PROTOCOL.md, "Values").
    static let maximumNumberLength = 32

    /// ``double(_:_:in:unit:)`` read straight from request bytes, for a
    /// fast path: nil for anything it would reject, which that full reader
    /// then reports.
    static func double<Bytes: Collection<UInt8>>(_ bytes: Bytes, in range: ClosedRange<Double>) -> Double? {
        NumberRule(range, unit: "").read(bytes)
    }

    /// Where a point may be (TAP, SELECT): far beyond any view, small
    /// enough that every distance computed from it is an exact-enough double.
    static let coordinates = NumberRule(-1_000_000_000...1_000_000_000, unit: "points")
    /// Lengths in points (insets, attachment boxes, slop, spacing).
    static let lengths = NumberRule(0...10_000, unit: "points")
    /// Offsets in points that may be negative (an attachment's baseline).
    static let offsets = NumberRule(-10_000...10_000, unit: "points")

    static var coordinateRange: ClosedRange<Double> { coordinates.range }
    static var lengthRange: ClosedRange<Double> { lengths.range }
    static var offsetRange: ClosedRange<Double> { offsets.range }

    /// A whole number within `range`, or `ERR NUMBER` naming the argument
    /// and the range (`must be 0 or more` for one with no upper bound).
    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let value = WireNumber.integer(text.utf8) else {
            throw ProtocolError(.number, "\(name) must be a whole number, not '\(text)'")
        }
        guard range.contains(value) else {
            throw ProtocolError(.number, "\(name) must be \(bounds(range)), not \(value)")
        }
        return value
    }

    /// `from 1 to 1000`, `0 or more`, for error sentences.
    static func bounds(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): return "of any size"
        case (let lower, Int.max): return "\(lower) or more"
        case (Int.min, let upper): return "\(upper) or less"
        case (let lower, let upper): return "from \(lower) to \(upper)"
        }
    }

    /// `100 to 900`, `0 or more`, for HELP and PROTOCOL.md.
    static func documented(_ range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): return "a whole number"
        case (let lower, Int.max): return "a whole number, \(lower) or more"
        case (Int.min, let upper): return "a whole number, \(upper) or less"
        case (let lower, let upper):
            return "\(NumberRule.grouped(Double(lower))) to \(NumberRule.grouped(Double(upper)))"
        }
    }

    /// The yes/no option `key=` of a request (yes, true, 1 / no, false, 0;
    /// absent is no), or `ERR ARGS` naming it.
    static func flag(_ request: Request, _ key: String) throws -> Bool {
        try request.value(for: key).map { try flag($0, key) } ?? false
    }

    /// A yes/no value (yes, true, 1 / no, false, 0, any case), or `ERR ARGS` naming `key`.
    static func flag(_ text: String, _ key: String) throws -> Bool {
        switch text.lowercased() {
        case "no", "false", "0": return false
        case "yes", "true", "1": return true
        default: throw ProtocolError(.arguments, "\(key) must be yes or no, not '\(text)'")
        }
    }

    /// One of `choices` (lower-case), matched ignoring case, or `ERR ARGS` naming `key`.
    static func choice(_ text: String, _ key: String, _ choices: [String]) throws -> String {
        let lowered = text.lowercased()
        guard choices.contains(lowered) else {
            throw ProtocolError(.arguments, "\(key) must be \(orList(choices)), not '\(text)'")
        }
        return lowered
    }

    /// `a, b or c`.
    static func orList(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }

    /// The longest document id, in bytes.
    static let maximumIDLength = 128

    /// A document id: 1 to 128 of `A–Z a–z 0–9 _ - . : /`. Ids are written
    /// unquoted everywhere, so they may hold nothing that needs quoting.
    static func documentID(_ text: String) throws -> String {
        guard isDocumentID(text.utf8) else {
            throw ProtocolError(.arguments, "document id must be 1 to \(maximumIDLength) characters of A-Z a-z 0-9 _ - . : / (got '\(text)')")
        }
        return text
    }

    /// Whether `bytes` spell a valid document id (see ``documentID(_:)``).
    static func isDocumentID<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        !bytes.isEmpty && bytes.count <= maximumIDLength
            && bytes.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                    UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"):
                    return true
                default: return false
                }
            }
    }
}

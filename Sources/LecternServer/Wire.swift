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
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // Beyond what an Int holds in hundredths (far beyond any screen),
        // Swift's own shortest form ("1e+300") is exact enough.
        guard abs(value) < 1e15 else { return String(value.rounded()) }
        let hundredths = (value * 100).rounded()
        if hundredths == 0 { return "0" }
        let whole = Int(hundredths) / 100
        let fraction = abs(Int(hundredths) % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    static func range(_ range: Range<Int>) -> String { "\(range.lowerBound)..\(range.upperBound)" }

    static func rect(_ rect: Rect) -> String {
        "\(number(rect.x)),\(number(rect.y)),\(number(rect.width)),\(number(rect.height))"
    }

    static func rects(_ rects: [Rect]) -> String { rects.map(rect).joined(separator: ";") }

    static func outline(_ polygons: [[Point]]) -> String {
        polygons.map { $0.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: ";") }
            .joined(separator: "|")
    }

    /// A finite number of points, or `ERR NUMBER` naming the argument.
    static func double(_ text: String, _ name: String) throws -> Double {
        guard let value = Double(text), value.isFinite, text.count <= 32 else {
            throw ProtocolError(.number, "\(name) must be a number, not '\(text)'")
        }
        return value
    }

    /// A whole number within `range`, or `ERR NUMBER` naming the argument.
    static func integer(_ text: String, _ name: String, in range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let value = Int(text) else {
            throw ProtocolError(.number, "\(name) must be a whole number, not '\(text)'")
        }
        guard range.contains(value) else {
            throw ProtocolError(.number, "\(name) must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        return value
    }

    /// The yes/no option `key=` of a request (yes, true, 1 / no, false, 0;
    /// absent is no), or `ERR ARGS` naming it.
    static func flag(_ request: Request, _ key: String) throws -> Bool {
        switch request.value(for: key)?.lowercased() {
        case nil, "no", "false", "0": return false
        case "yes", "true", "1": return true
        case let other?: throw ProtocolError(.arguments, "\(key) must be yes or no, not '\(other)'")
        }
    }

    /// The longest document id, in bytes.
    static let maximumIDLength = 128

    /// A document id: 1 to 128 of `A–Z a–z 0–9 _ - . : /`. Ids are written
    /// unquoted everywhere, so they may hold nothing that needs quoting.
    static func documentID(_ text: String) throws -> String {
        let valid = !text.isEmpty && text.utf8.count <= maximumIDLength
            && text.utf8.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
                    UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "/"):
                    return true
                default: return false
                }
            }
        guard valid else {
            throw ProtocolError(.arguments, "document id must be 1 to \(maximumIDLength) characters of A-Z a-z 0-9 _ - . : / (got '\(text)')")
        }
        return text
    }
}

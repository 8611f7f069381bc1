// WireValue.swift: the protocol's spelling of numbers, ranges and rect lists.

import Foundation

/// Reading and writing the value forms of protocol/PROTOCOL.md, "Values".
enum WireValue {
    /// `a..b` → `a..<b`; nil unless both ends are whole numbers and a ≤ b.
    static func range(_ text: String) -> Range<Int>? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let lower = Int(parts[0]), let upper = Int(parts[1]), lower <= upper else { return nil }
        return lower..<upper
    }

    /// `x,y,w,h;x,y,w,h` → rects; nil if any is not a rect.
    static func rects(_ text: String) -> [Rect]? {
        var rects: [Rect] = []
        for part in text.split(separator: ";") {
            guard let rect = Rect(wire: part) else { return nil }
            rects.append(rect)
        }
        return rects
    }

    /// A number as arguments take it and replies show it: at most two
    /// decimals, trailing zeros dropped (`180.5`, `17`, `-3.25`).
    static func number(_ value: Double) -> String { GeometryNumber.spelled(value) }
}

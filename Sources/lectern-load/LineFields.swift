// LineFields.swift: key=value tokens of a reply or event line, read from bytes.

import LecternProtocol

/// Reads `key=value` tokens straight from a line's bytes, without making
/// strings: event lines arrive by the hundred thousand per second.
enum LineFields {
    /// The bytes of the value of the first ` key=` token (or `key=` at the
    /// start of the line), up to the next space.
    static func value<Line: Collection>(_ key: String, in line: Line) -> Line.SubSequence?
    where Line.Element == UInt8 {
        var previous = UInt8(ascii: " ")
        var index = line.startIndex
        while index != line.endIndex {
            if previous == UInt8(ascii: " "), let equals = Self.index(after: key, at: index, in: line),
                equals != line.endIndex, line[equals] == UInt8(ascii: "=") {
                let start = line.index(after: equals)
                let end = line[start...].firstIndex(of: UInt8(ascii: " ")) ?? line.endIndex
                return line[start..<end]
            }
            previous = line[index]
            index = line.index(after: index)
        }
        return nil
    }

    /// Where `key`'s bytes end if they start at `index` (no allocation: the
    /// key is compared as it is stored).
    private static func index<Line: Collection>(after key: String, at index: Line.Index, in line: Line) -> Line.Index?
    where Line.Element == UInt8 {
        var position = index
        for byte in key.utf8 {
            guard position != line.endIndex, line[position] == byte else { return nil }
            position = line.index(after: position)
        }
        return position
    }

    /// A non-negative decimal integer value (digits only).
    static func integer<Line: Collection>(_ key: String, in line: Line) -> Int? where Line.Element == UInt8 {
        value(key, in: line).flatMap(WireNumber.wholeNumber)
    }

    /// A decimal number value (`-3.25`).
    static func number<Line: Collection>(_ key: String, in line: Line) -> Double? where Line.Element == UInt8 {
        value(key, in: line).flatMap(WireNumber.double)
    }

    /// A `a..b` range value.
    static func range<Line: Collection>(_ key: String, in line: Line) -> Range<Int>? where Line.Element == UInt8 {
        guard let bytes = value(key, in: line) else { return nil }
        // `..` after the first byte (the lower bound may be negative).
        var dots = bytes.startIndex
        while dots != bytes.endIndex, bytes[dots] != UInt8(ascii: ".") { dots = bytes.index(after: dots) }
        guard dots != bytes.endIndex else { return nil }
        let second = bytes.index(after: dots)
        guard second != bytes.endIndex, bytes[second] == UInt8(ascii: "."),
            let low = WireNumber.integer(bytes[..<dots]), let high = WireNumber.integer(bytes[bytes.index(after: second)...]),
            low <= high
        else { return nil }
        return low..<high
    }
}

// ReplyFields.swift: the tokens of a reply or event line, with typed getters.

import LecternProtocol

/// The tokens of one line of a reply or event (`sentence 0 range=0..35 text="…"`),
/// split with the same rules as requests (LecternProtocol's ``RequestParser``),
/// so quoted strings come back with their escapes resolved, exactly.
///
/// Every getter throws ``LecternError/malformedReply(_:)`` naming the line
/// when a field is missing or not of its type, instead of trapping: the
/// bytes came from the network.
struct ReplyFields {
    /// The line as received, for error messages.
    let line: String
    /// Positional tokens in order (`sentence`, `0`).
    let positional: [String]
    private let values: [String: String]

    init(_ line: String) throws {
        self.line = line
        // A placeholder command makes every token of the line an argument.
        let request: Request?
        do {
            request = try RequestParser.parse(Array("_ \(line)".utf8)[...])
        } catch {
            throw LecternError.malformedReply(line)
        }
        let arguments = request?.arguments ?? []
        positional = arguments.filter { $0.key == nil }.map(\.value)
        var values: [String: String] = [:]
        for argument in arguments {
            if let key = argument.key { values[key] = argument.value }
        }
        self.values = values
    }

    func malformed(_ what: String) -> LecternError {
        .malformedReply("\(what) in: \(line)")
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String) throws -> String {
        guard let value = values[key] else { throw malformed("no \(key)=") }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let value = Int(try string(key)) else { throw malformed("\(key)= is not a whole number") }
        return value
    }

    func double(_ key: String) throws -> Double {
        guard let value = Double(try string(key)) else { throw malformed("\(key)= is not a number") }
        return value
    }

    func bool(_ key: String) throws -> Bool {
        switch try string(key) {
        case "yes": return true
        case "no": return false
        default: throw malformed("\(key)= is not yes or no")
        }
    }

    /// The value of `key=` as one of a type's words (``OffsetUnit``,
    /// ``SegmentationMode``, ``CaretSide``).
    func word<Value: RawRepresentable>(_ key: String, as type: Value.Type) throws -> Value where Value.RawValue == String {
        guard let value = Value(rawValue: try string(key)) else { throw malformed("unknown \(key)") }
        return value
    }

    /// `getter(key)` when the line has `key=`, nil when it does not (a
    /// field that only some replies carry): `try fields.optional(fields.rect, "caret")`.
    func optional<Value>(_ getter: (String) throws -> Value, _ key: String) rethrows -> Value? {
        has(key) ? try getter(key) : nil
    }

    func range(_ key: String) throws -> Range<Int> {
        guard let range = WireValue.range(try string(key)) else { throw malformed("\(key)= is not a range a..b") }
        return range
    }

    func rect(_ key: String) throws -> Rect {
        guard let rect = Rect(wire: try string(key)) else { throw malformed("\(key)= is not a rect x,y,w,h") }
        return rect
    }

    /// The rects of `key=`, or none when the field is absent (no view).
    func rects(_ key: String) throws -> [Rect] {
        guard let text = values[key] else { return [] }
        guard let rects = WireValue.rects(text) else { throw malformed("\(key)= is not a list of rects") }
        return rects
    }

    /// The outline of `key=`, or an empty one when the field is absent (no view).
    func outline(_ key: String) throws -> Outline {
        guard let text = values[key] else { return Outline(polygons: []) }
        guard let outline = Outline(wire: text) else { throw malformed("\(key)= is not an outline") }
        return outline
    }

    /// The positional token at `index` as a whole number.
    func int(at index: Int) throws -> Int {
        guard index < positional.count, let value = Int(positional[index]) else {
            throw malformed("no whole number at position \(index)")
        }
        return value
    }

    /// The positional token at `index`.
    func word(at index: Int) throws -> String {
        guard index < positional.count else { throw malformed("no word at position \(index)") }
        return positional[index]
    }
}

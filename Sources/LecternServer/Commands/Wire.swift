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
        switch NumberParts(value) {
        case .beyondHundredths(let rounded): return String(rounded)
        case .parts(let negative, let whole, let fraction):
            let sign = negative && whole == 0 ? "-" : ""
            if fraction.digits == 0 { return "\(sign)\(whole)" }
            if fraction.digits == 1 { return "\(sign)\(whole).\(fraction.value)" }
            return "\(sign)\(whole).\(fraction.value < 10 ? "0" : "")\(fraction.value)"
        }
    }

    /// A short line (a reply's status line) built on the stack and then
    /// appended to an output in one copy: such a line is a dozen small
    /// pieces, and appending each to an Array costs a uniqueness and a
    /// capacity check and a call.
    struct ShortLine {
        /// Room for the longest line written this way (TAP's status line
        /// with every number at its longest is about 120 bytes).
        static let capacity = 256
        private let base: UnsafeMutablePointer<UInt8>
        private(set) var count = 0

        /// Runs `body` on an empty line, then appends what it wrote to `output`.
        static func append(to output: inout [UInt8], _ body: (inout ShortLine) -> Void) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var line = ShortLine(base: buffer.baseAddress!)
                body(&line)
                output.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: line.count))
            }
        }

        private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

        private mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
            precondition(count + n <= Self.capacity, "a short line is at most \(Self.capacity) bytes")
            defer { count += n }
            return base + count
        }

        mutating func write(_ literal: StaticString) {
            let n = literal.utf8CodeUnitCount
            reserve(n).update(from: literal.utf8Start, count: n)
        }

        mutating func write(byte: UInt8) { reserve(1).pointee = byte }

        /// A whole number in decimal.
        mutating func write(decimal value: Int) {
            if value < 0 { write(byte: UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            // Count the digits, then write them from the right in place.
            var digits = 1
            var bound: UInt = 10
            while magnitude >= bound && digits < 19 {
                digits &+= 1
                bound &*= 10
            }
            if magnitude >= bound { digits &+= 1 }  // 10^19 and above: 20 digits
            let start = reserve(digits)
            var at = digits
            repeat {
                at &-= 1
                start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while at > 0
        }

        /// A number as ``Wire/number(_:)`` writes it.
        mutating func write(number value: Double) { Wire.write(number: value, to: &self) }
    }

    /// Where ``write(number:to:)`` puts its bytes: a ``ShortLine`` on the
    /// stack, or a byte array (event geometry).
    protocol NumberSink {
        mutating func write(byte: UInt8)
        mutating func write(decimal value: Int)
    }

    /// A number as ``number(_:)`` writes it, as bytes into `sink`.
    static func write<Sink: NumberSink>(number value: Double, to sink: inout Sink) {
        switch NumberParts(value) {
        case .beyondHundredths(let rounded):
            for byte in String(rounded).utf8 { sink.write(byte: byte) }
        case .parts(let negative, let whole, let fraction):
            if negative && whole == 0 { sink.write(byte: UInt8(ascii: "-")) }
            sink.write(decimal: whole)
            guard fraction.digits > 0 else { return }
            sink.write(byte: UInt8(ascii: "."))
            if fraction.digits == 2 && fraction.value < 10 { sink.write(byte: UInt8(ascii: "0")) }
            sink.write(decimal: fraction.value)
        }
    }

    /// A number as the wire writes it: rounded to hundredths, then whole
    /// part and at most two decimals with trailing zeros dropped.
    fileprivate enum NumberParts {
        /// Beyond what an Int holds in hundredths (far beyond any screen):
        /// Swift's own shortest form ("1e+300") is exact enough.
        case beyondHundredths(Double)
        /// `whole` carries its own minus sign; `negative` is set for
        /// values such as -0.5, whose whole part is 0. `fraction` is the
        /// decimals without trailing zeros: 0, 1 or 2 digits of `value`.
        case parts(negative: Bool, whole: Int, fraction: (value: Int, digits: Int))

        init(_ value: Double) {
            guard value.isFinite else {
                self = .parts(negative: false, whole: 0, fraction: (0, 0))
                return
            }
            guard abs(value) < 1e15 else {
                self = .beyondHundredths(value.rounded())
                return
            }
            let hundredths = Int((value * 100).rounded())
            let whole = hundredths / 100
            let fraction = abs(hundredths % 100)
            let digits = fraction == 0 ? 0 : fraction % 10 == 0 ? 1 : 2
            self = .parts(negative: hundredths < 0, whole: whole,
                          fraction: (digits == 1 ? fraction / 10 : fraction, digits))
        }
    }

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
            write(number: rect.x, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            write(number: rect.y, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            write(number: rect.width, to: &bytes)
            bytes.append(UInt8(ascii: ","))
            write(number: rect.height, to: &bytes)
        }
    }

    /// ``outline(_:)`` written as bytes.
    static func write(outline polygons: [[Point]], to bytes: inout [UInt8]) {
        for (index, polygon) in polygons.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "|")) }
            for (pointIndex, point) in polygon.enumerated() {
                if pointIndex > 0 { bytes.append(UInt8(ascii: ";")) }
                write(number: point.x, to: &bytes)
                bytes.append(UInt8(ascii: ","))
                write(number: point.y, to: &bytes)
            }
        }
    }

    /// A number within `range`, or `ERR NUMBER` naming the argument and
    /// the range: the one place where a numeric argument is read, so that
    /// nothing downstream (layout, hit-testing, the SVG and wire writers)
    /// ever sees an infinity, a NaN or a magnitude no screen has.
    /// `unit` follows the bounds in the sentence (`ms`, `points`).
    static func double(_ text: String, _ name: String, in range: ClosedRange<Double>, unit: String = "") throws -> Double {
        let bounds = "from \(number(range.lowerBound)) to \(number(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
        guard text.utf8.count <= 32, let value = Double(text), value.isFinite else {
            throw ProtocolError(.number, "\(name) must be a number \(bounds), not '\(text)'")
        }
        guard range.contains(value) else {
            throw ProtocolError(.number, "\(name) must be \(bounds), not \(text)")
        }
        return value
    }

    /// Where a point may be (TAP, SELECT): far beyond any view, small
    /// enough that every distance computed from it is an exact-enough double.
    static let coordinateRange: ClosedRange<Double> = -1_000_000_000...1_000_000_000
    /// Lengths in points (view sizes, insets, attachment boxes, slop).
    static let lengthRange: ClosedRange<Double> = 0...10_000
    /// Offsets in points that may be negative (an attachment's baseline).
    static let offsetRange: ClosedRange<Double> = -10_000...10_000

    /// ``plainDouble(_:)`` within `range`: nil outside it too, so that the
    /// full reader (``double(_:_:in:)``) reports the error.
    static func plainDouble<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, in range: ClosedRange<Double>) -> Double? where Bytes.Index == Int {
        guard let value = plainDouble(bytes), range.contains(value) else { return nil }
        return value
    }

    /// The commonest spelling of a number, `-?digits[.digits]` with at most
    /// 15 digits, read straight from request bytes; nil for anything else,
    /// which ``double(_:_:)`` then reads (or rejects).
    ///
    /// The digits form an integer below 2^53 and the divisor a power of ten
    /// up to 10^15, both exact doubles, so the one division is correctly
    /// rounded: the result is exactly what `Double(String)` gives.
    static func plainDouble<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Double? where Bytes.Index == Int {
        var index = bytes.startIndex
        let negative = index < bytes.endIndex && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa = 0
        var digits = 0
        var decimals = 0
        var seenPoint = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "."), !seenPoint, digits > 0 {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 15 else { return nil }
            // Below 10^15 by the guard: no overflow to check.
            mantissa = mantissa &* 10 &+ Int(byte &- UInt8(ascii: "0"))
            digits &+= 1
            if seenPoint { decimals &+= 1 }
        }
        guard digits > 0, !seenPoint || decimals > 0 else { return nil }
        // 10^decimals, exact (every power of ten to 10^22 is a double).
        var divisor = 1.0
        for _ in 0..<decimals { divisor *= 10 }
        let magnitude = Double(mantissa) / divisor
        return negative ? -magnitude : magnitude
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

extension Wire.ShortLine: Wire.NumberSink {}

extension Array: Wire.NumberSink where Element == UInt8 {
    mutating func write(byte: UInt8) { append(byte) }
    mutating func write(decimal value: Int) { RESP.appendDecimal(value, into: &self) }
}

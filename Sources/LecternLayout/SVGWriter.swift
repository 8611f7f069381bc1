// SVGWriter.swift: minimal SVG element writer with escaping and compact numbers.

/// Appends SVG elements to a string, escaping text and attributes.
struct SVGWriter {
    let width: Double
    let height: Double
    private(set) var output = ""

    init(width: Double, height: Double) {
        self.width = width.isFinite ? max(0, width) : 0
        self.height = height
    }

    mutating func open() {
        let w = Self.number(width)
        let h = Self.number(height)
        output += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n"
        output += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    }

    mutating func close() {
        output += "</svg>\n"
    }

    mutating func rect(_ r: Rect, style: String) {
        output += "<rect x=\"\(Self.number(r.x))\" y=\"\(Self.number(r.y))\" width=\"\(Self.number(r.width))\" "
            + "height=\"\(Self.number(r.height))\" style=\"\(Self.escaped(style))\"/>\n"
    }

    mutating func line(from a: Point, to b: Point, style: String) {
        output += "<line x1=\"\(Self.number(a.x))\" y1=\"\(Self.number(a.y))\" x2=\"\(Self.number(b.x))\" "
            + "y2=\"\(Self.number(b.y))\" style=\"\(Self.escaped(style))\"/>\n"
    }

    mutating func polygon(_ points: [Point], style: String) {
        let list = points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
        output += "<polygon points=\"\(list)\" style=\"\(Self.escaped(style))\"/>\n"
    }

    mutating func text(_ string: String, at point: Point, style: String) {
        output += "<text x=\"\(Self.number(point.x))\" y=\"\(Self.number(point.y))\" style=\"\(Self.escaped(style))\">"
            + Self.escaped(string) + "</text>\n"
    }

    mutating func openDefinitions() {
        output += "<defs>\n"
    }

    mutating func closeDefinitions() {
        output += "</defs>\n"
    }

    /// A glyph outline to `<use>`: path data in design units (y down),
    /// scaled to points by its own transform.
    mutating func glyphPath(id: String, scale: String, pathData: String) {
        output += "<path id=\"\(id)\" transform=\"scale(\(scale))\" d=\"\(pathData)\"/>\n"
    }

    /// A colour glyph's bitmap to `<use>`: `frame` in design units (y down).
    mutating func glyphImage(id: String, scale: String, frame: Rect, base64PNG: String) {
        output += "<image id=\"\(id)\" transform=\"scale(\(scale))\" x=\"\(Self.number(frame.x))\" "
            + "y=\"\(Self.number(frame.y))\" width=\"\(Self.number(frame.width))\" "
            + "height=\"\(Self.number(frame.height))\" href=\"data:image/png;base64,\(base64PNG)\"/>\n"
    }

    /// A glyph drawn with its origin at `point`.
    mutating func use(_ id: String, at point: Point) {
        output += "<use href=\"#\(id)\" x=\"\(Self.number(point.x))\" y=\"\(Self.number(point.y))\"/>\n"
    }

    mutating func reserveCapacity(_ bytes: Int) {
        output.reserveCapacity(max(0, bytes))
    }

    /// A scale factor (a font size over units per em, 0.00006 to 62.5)
    /// with nine decimals, no exponent: three decimals (``number(_:)``)
    /// would be a 5 % error on 17 / 2048.
    static func scale(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0" }
        let nanos = Int((min(value, 1e6) * 1e9).rounded())
        let whole = nanos / 1_000_000_000
        var fraction = String(nanos % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    /// The largest magnitude written: far beyond any drawing, and small
    /// enough that every value up to it converts to `Int` exactly.
    static let maximumMagnitude = 1e15

    /// Numbers with at most three decimals, no exponent; non-finite values
    /// are written as 0 and magnitudes past ``maximumMagnitude`` as that
    /// bound, so no input can make the conversion trap.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let clamped = min(max(value, -maximumMagnitude), maximumMagnitude)
        let rounded = (clamped * 1000).rounded() / 1000
        // Whole values print through Int (exact within the bound); others
        // through Double's shortest form, which has no exponent here.
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// `number(value).utf8.count`, without making the string: from the
    /// value in thousandths, whose shortest form is its digits (a sign, the
    /// whole part, a point and the decimals without trailing zeros) while
    /// it has at most 15 significant digits; beyond, the string is made.
    static func numberLength(_ value: Double) -> Int {
        guard value.isFinite else { return 1 }
        let clamped = min(max(value, -maximumMagnitude), maximumMagnitude)
        let thousandths = (clamped * 1000).rounded()
        guard abs(thousandths) < 1e15 else { return number(value).utf8.count }
        let milli = Int(thousandths)
        var length = milli < 0 ? 1 : 0
        var whole = abs(milli) / 1000
        repeat {
            length += 1
            whole /= 10
        } while whole > 0
        var fraction = abs(milli) % 1000
        guard fraction != 0 else { return length }
        var decimals = 3
        while fraction % 10 == 0 {
            decimals -= 1
            fraction /= 10
        }
        return length + 1 + decimals
    }

    /// Appends a `<use>` of a glyph whose `<use href="#…" x="` is `prefix`
    /// (``usePrefix(_:)``): what ``use(_:at:)`` writes, without building the id.
    mutating func use(prefix: String, at point: Point) {
        output += prefix
        output += Self.number(point.x)
        output += "\" y=\""
        output += Self.number(point.y)
        output += "\"/>\n"
    }

    static func usePrefix(_ id: String) -> String {
        "<use href=\"#\(id)\" x=\""
    }

    static func escaped(_ string: String) -> String {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                if scalar.value < 0x20 { continue } // not allowed in XML 1.0
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

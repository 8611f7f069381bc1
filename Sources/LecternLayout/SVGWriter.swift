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

// CommandOptions.swift: every command's key=value options and number ranges,
// declared once for the gate, the handlers, HELP and PROTOCOL.md.

import LecternLayout
import LecternProtocol
import LecternText

/// An ``Option`` as a command's table entry lists it, whatever its value's type.
protocol OptionDeclaration: Sendable {
    var spec: OptionSpec { get }
}

extension Option: OptionDeclaration {}

// To add an option to a command: declare it here as a `static let` of
// the command's namespace (one line: key, values, default, meaning), list
// it in the command's `options:` in the command table, and read it in the
// handler with `try Namespace.option.read(request)`. The gate, the usage
// line, HELP <command> and PROTOCOL.md's "Options" table (see
// ``CommandReference``) follow from the declaration.

/// HELLO's options.
enum SessionOptions {
    static let name = Option<String?>.text("name", placeholder: "<client>", values: "any text", "the client's name, for the daemon's logs")
    static let units = Option<String?>.choice(
        "units", OffsetUnit.allCases.map(\.rawValue), "the offset unit of this connection (default utf16)")
}

/// PUT's options.
enum DocumentOptions {
    static let language = Option<Language?>.language("lang", "a hint: the language of the paragraphs whose script does not decide it, and the document's language (default: each paragraph detected from its script and, for Latin script, its commonest words)")
    static let mode = Option<String>.choice("mode", [SentenceMode.reader.rawValue, SentenceMode.uax29.rawValue], default: SentenceMode.reader.rawValue, "reader rules, or exactly Unicode's UAX #29")
}

/// VIEW's options: a ``LayoutSpec``.
enum ViewOptions {
    static let width = Option<Double>.number("width", NumberRule(0...100_000, above: true, unit: "points"), required: "the view's width, insets included")
    static let size = Option<Double>.number(
        "size", NumberRule(LayoutSpec.minimumFontSize...LayoutSpec.maximumFontSize, unit: "points"), default: 17, "the font size")
    static let font = Option<String?>.text(
        "font", placeholder: "<family>", values: "a fontconfig family name", maximumLength: 200, default: FontSpec.defaultSans.family, "the font family")
    /// The weights fontconfig is asked for (FontCatalog maps CSS weights
    /// 100 to 900 onto fontconfig's own with `FcWeightFromOpenType`).
    static let weight = Option<Int>.wholeNumber("weight", 100...900, default: 400, "the CSS font weight (400 regular, 700 bold)")
    static let italic = Option<Bool>.flag("italic", "an italic face")
    static let lineHeightMultiple = NumberRule(0...20, above: true, unit: "")
    static let lineHeightPoints = NumberRule(0...10_000, above: true, unit: "points")
    static let lineHeight = Option<LineHeight>(
        spec: OptionSpec(
            key: "line-height", placeholder: "auto|<n>x|<pt>",
            values: "auto (the font's), a multiple \(lineHeightMultiple.documented) (1.5x), or \(lineHeightPoints.documented)",
            defaultText: "auto", meaning: "the line box height; the extra leading is split above and below", isRequired: false, alternatives: []),
        fallback: .fontDefault,
        parse: { text in
            if text == "auto" { return .fontDefault }
            if text.hasSuffix("x") { return .multiple(try lineHeightMultiple.read(String(text.dropLast()), "line-height multiple")) }
            return .absolute(try lineHeightPoints.read(text, "line-height"))
        })
    static let paragraphSpacing = Option<Double>.number("paragraph-spacing", Wire.lengths, default: 0, "space after each paragraph but the last")
    static let insets = Option<EdgeInsets>(
        spec: OptionSpec(
            key: "insets", placeholder: "<pt>|<v>,<h>|<t>,<l>,<b>,<r>",
            values: "1, 2 or 4 lengths of \(Wire.lengths.documented), as CSS padding; left + right less than the width",
            defaultText: "0", meaning: "the space between the view's edges and its text", isRequired: false, alternatives: []),
        fallback: .zero,
        parse: { text in
            let values = try text.split(separator: ",", omittingEmptySubsequences: false).map { try Wire.lengths.read(String($0), "insets") }
            switch values.count {
            case 1: return EdgeInsets(all: values[0])
            case 2: return EdgeInsets(vertical: values[0], horizontal: values[1])
            case 4: return EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
            default: throw ProtocolError(.arguments, "insets takes 1, 2 or 4 numbers: all, vertical,horizontal, or top,left,bottom,right")
            }
        })
    static let isDefault = Option<Bool>.flag("default", "also the view of every connection that has none of its own")
}

/// LINES's options.
enum LinesOptions {
    static let runs = Option<Bool>.flag("runs", "the fonts used (family, file, face index) and each line's runs (font, size, range)")
}

/// STATS's options.
enum StatsOptions {
    static let format = Option<String?>.choice("format", ["prometheus"], "the same figures in Prometheus text format (default: name value lines by section)")
}

/// TAP's and SELECT's options, and the point's rule.
enum PointOptions {
    /// What `slop` is when absent (the plain-line reader uses it too).
    static let defaultSlop = 0.0
    static let slop = Option<Double>.number("slop", Wire.lengths, default: defaultSlop, "a miss this near the text counts as a hit")
}

/// RENDER's options.
enum RenderOptions {
    static let sentence = Option<String?>.text("sentence", placeholder: "<n>", values: "a sentence number", "one more sentence to highlight")
    static let caret = Option<String?>.text("caret", placeholder: "<offset>", values: "an offset in the connection's unit", "where to draw a caret")
    static let boxes = Option<Bool>.flag("boxes", "draw line boxes and baselines")
}

/// ATTACH's options.
enum AttachOptions {
    static let at = Option<String>.text(
        "at", placeholder: "<offset>|end", values: "an offset in the connection's unit, or end (glued to the end of the text)",
        required: "where the box goes in the text")
}

/// COPY's and MOVE's options.
enum TransferOptions {
    static let target = Option<String>.documentID("to", placeholder: "<other>", required: "the document the sentences go to (created if missing)")
}

/// TYPE's and SPEED's options.
enum TypewriterOptions {
    static let intervalRule = NumberRule(1...60_000, unit: "ms")
    static let cpsRule = NumberRule((1.0 / 60)...1000, unit: "graphemes per second", lowerBoundText: "1/60")
    static let pauseRule = NumberRule(0...60_000, unit: "ms")
    /// TYPE's pace.
    static let interval = Option<Double>.number("interval", intervalRule, default: 75, "the time between graphemes").or("cps")
    /// SPEED's pace (this or `cps=`).
    static let newInterval = Option<Double>.number("interval", intervalRule, required: "the time between graphemes").or("cps")
    static let cps = Option<Double?>.number("cps", cpsRule, "graphemes per second, instead of interval=")
    static let from = Option<String?>.text("from", placeholder: "<offset>", values: "an offset in the connection's unit", default: "0", "where the reveal starts")
    static let sentencePause = Option<Double>.number("sentence-pause", pauseRule, default: 0, "time added after a sentence end")
    static let commaPause = Option<Double>.number("comma-pause", pauseRule, default: 0, "time added after a comma")
    static let follow = Option<Bool>.flag("follow", "send ! SENTENCE with the highlight of each new sentence")

    /// Milliseconds per grapheme from `interval` (TYPE's or SPEED's) or `cps=`.
    static func pace(_ request: Request, interval: Option<Double>) throws -> Double {
        if let perSecond = try cps.read(request) { return 1000 / perSecond }
        return try interval.read(request)
    }
}

/// The positional arguments that are numbers, with their rules, for
/// PROTOCOL.md's table (the handlers read them with the same rules).
enum NumberArguments {
    static let all: [(commands: String, arguments: String, rule: NumberRule)] = [
        ("TAP, SELECT", "`<x>`, `<y>`", Wire.coordinates),
        ("ATTACH", "`<width>`, `<height>`", Wire.lengths),
        ("ATTACH", "`[baseline]`", Wire.offsets),
    ]
}

// CommandOption.swift: the key=value options a command takes, declared once.

import LecternProtocol
import LecternText

/// What a number argument may be: a range, whether its lower bound itself
/// is excluded ("above 0"), and the unit its sentences name. The one place
/// a number's range is stated: the reader (``read(_:_:)``), the fast
/// path's reader (``read(_:)``), HELP and PROTOCOL.md (``documented``) all
/// take it from here.
///
/// Every reader also refuses a nonzero value smaller than half a
/// hundredth (`1e-300`): the wire writes numbers with two decimals, so it
/// would be echoed, and behave in replies, as 0 (PROTOCOL.md, "Values").
struct NumberRule: Sendable {
    let range: ClosedRange<Double>
    /// "above 0": the lower bound is not a value it takes.
    let excludesLowerBound: Bool
    /// `points`, `ms`, `graphemes per second`; empty for a plain factor.
    let unit: String

    /// How sentences write the lower bound when two decimals would not
    /// say it (`1/60`); nil: as the wire writes numbers.
    let lowerBoundText: String?

    init(_ range: ClosedRange<Double>, above: Bool = false, unit: String, lowerBoundText: String? = nil) {
        self.range = range
        self.excludesLowerBound = above
        self.unit = unit
        self.lowerBoundText = lowerBoundText
    }

    /// The smallest magnitude a nonzero number may have: what two decimals
    /// write as 0.01 (half a hundredth and below is written `0`).
    static let smallestMagnitude = 0.005

    /// Whether `value` is one this rule takes.
    @inline(__always)
    func accepts(_ value: Double) -> Bool {
        range.contains(value) && !(excludesLowerBound && value == range.lowerBound)
            && (value == 0 || value.magnitude >= Self.smallestMagnitude)
    }

    /// `from 0 to 10000 points`, `above 0 and at most 100000 points`, for
    /// error sentences (numbers as the wire writes them).
    var bounds: String {
        let upper = "\(WireNumber.text(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
        let lower = lowerBoundText ?? WireNumber.text(range.lowerBound)
        return excludesLowerBound ? "above \(lower) and at most \(upper)" : "from \(lower) to \(upper)"
    }

    /// `0 to 10,000 points`, `above 0, at most 100,000 points`, for HELP
    /// and PROTOCOL.md.
    var documented: String {
        let upper = "\(Self.grouped(range.upperBound))\(unit.isEmpty ? "" : " " + unit)"
        let lower = lowerBoundText ?? Self.grouped(range.lowerBound)
        return excludesLowerBound ? "above \(lower), at most \(upper)" : "\(lower) to \(upper)"
    }

    /// `text` read as a number this rule takes, or `ERR NUMBER` naming
    /// `name` and the bounds.
    func read(_ text: String, _ name: String) throws -> Double {
        guard text.utf8.count <= Wire.maximumNumberLength, let value = WireNumber.double(text.utf8) else {
            throw ProtocolError(.number, "\(name) must be a number \(bounds), not '\(text)'")
        }
        guard accepts(value) else {
            if value != 0 && value.magnitude < Self.smallestMagnitude && range.contains(value) {
                throw ProtocolError(.number, "\(name) must be \(bounds), not \(text): numbers have two decimals, and this one would be written 0")
            }
            throw ProtocolError(.number, "\(name) must be \(bounds), not \(text)")
        }
        return value
    }

    /// ``read(_:_:)`` straight from request bytes, for a fast path: nil
    /// for anything that reader refuses (which it then reports).
    @inline(__always)
    func read<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Double? {
        guard bytes.count <= Wire.maximumNumberLength, let value = WireNumber.double(bytes), accepts(value) else { return nil }
        return value
    }

    /// A number with thousands grouped by commas (`100,000`, `0.02`, `-10,000`).
    static func grouped(_ value: Double) -> String {
        if value.magnitude < 1000 || value != value.rounded() {
            return WireNumber.text(value)
        }
        var digits = Array(WireNumber.text(value.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (value < 0 ? "-" : "") + String(digits)
    }
}

/// What a command's table entry, the gate and HELP know of one option,
/// whatever its value's type (see ``Option``).
struct OptionSpec: Sendable {
    /// The key, as written before `=`.
    let key: String
    /// The value's placeholder in the synopsis: `<pt>`, `yes|no`, `reader|uax29`.
    let placeholder: String
    /// What values it takes, for HELP and PROTOCOL.md: `1 to 1,000 points`, `yes or no`.
    let values: String
    /// The default as the wire writes it, if the option has one.
    let defaultText: String?
    /// What it does, a short phrase for HELP and PROTOCOL.md.
    let meaning: String
    /// Whether the command needs it (or one of its ``alternatives``).
    let isRequired: Bool
    /// Keys of options that do the same thing another way
    /// (`interval=` and `cps=`): at most one of them may be given, shown
    /// as `[interval=<ms>|cps=<n>]`.
    let alternatives: [String]

    /// `key=<placeholder>`.
    var synopsis: String { "\(key)=\(placeholder)" }

    /// The line HELP gives for it: `size=<pt>  1 to 1,000 points; default 17: the font size`.
    var helpLine: String {
        var line = "\(synopsis)  \(values)"
        if isRequired { line += alternatives.isEmpty ? "; required" : "; this or \(alternatives.map { $0 + "=" }.joined(separator: " or ")) required" }
        if let defaultText { line += "; default \(defaultText)" }
        return line + ": " + meaning
    }
}

/// One `key=value` option a command takes, declared once: its key, the
/// values it takes (and so its range or its choices), its default, and a
/// phrase for HELP. A command lists its options in the command table
/// (``Command/options``); the gate refuses a key it does not list (with
/// the nearest one it does), a key given twice and a missing required
/// one, and the handler reads the value through the same declaration
/// (``read(_:)``), so a range or a default is stated once, here.
///
/// `Value` is what ``read(_:)`` gives: the option's type for one with a
/// default or a required one (`Option<Double>`), an optional for one
/// without (`Option<Double?>`, nil when it is absent).
///
/// ```swift
/// static let size = Option<Double>.number("size", LayoutOptions.sizeRule, default: 17, "the font size")
/// let size = try LayoutOptions.size.read(request)
/// ```
struct Option<Value: Sendable>: Sendable {
    let spec: OptionSpec
    /// Reads a value that is present.
    private let parse: @Sendable (String) throws -> Value
    /// What an absent option reads as; nil for a required option.
    let fallback: Value?

    init(spec: OptionSpec, fallback: Value?, parse: @escaping @Sendable (String) throws -> Value) {
        self.spec = spec
        self.fallback = fallback
        self.parse = parse
    }

    var key: String { spec.key }

    /// The option's value in `request`, its default if absent (the gate
    /// has checked that a required one is there).
    func read(_ request: Request) throws -> Value {
        guard let text = request.value(for: spec.key) else {
            guard let fallback else { throw ProtocolError(.arguments, "\(spec.synopsis) is required") }
            return fallback
        }
        return try parse(text)
    }

    /// Whether `request` gives the option.
    func isGiven(in request: Request) -> Bool { request.value(for: spec.key) != nil }

    /// This option as `alternatives` to others (see ``OptionSpec/alternatives``).
    func or(_ keys: String...) -> Option {
        Option(spec: OptionSpec(
            key: spec.key, placeholder: spec.placeholder, values: spec.values, defaultText: spec.defaultText,
            meaning: spec.meaning, isRequired: spec.isRequired, alternatives: spec.alternatives + keys),
            fallback: fallback, parse: parse)
    }
}

extension Option where Value == Double {
    /// A number with a default.
    static func number(_ key: String, _ rule: NumberRule, default value: Double, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: placeholder(rule), values: rule.documented, defaultText: WireNumber.text(value),
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: value, parse: { try rule.read($0, key) })
    }

    /// A number the command needs.
    static func number(_ key: String, _ rule: NumberRule, required meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: placeholder(rule), values: rule.documented, defaultText: nil,
                             meaning: meaning, isRequired: true, alternatives: []),
            fallback: nil, parse: { try rule.read($0, key) })
    }

    fileprivate static func placeholder(_ rule: NumberRule) -> String {
        switch rule.unit {
        case "points": return "<pt>"
        case "ms": return "<ms>"
        default: return "<n>"
        }
    }
}

extension Option where Value == Double? {
    /// A number with no default: nil when absent.
    static func number(_ key: String, _ rule: NumberRule, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: Option<Double>.placeholder(rule), values: rule.documented, defaultText: nil,
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: .some(nil), parse: { try rule.read($0, key) })
    }
}

extension Option where Value == Int {
    /// A whole number within `range`, with a default.
    static func wholeNumber(_ key: String, _ range: ClosedRange<Int>, default value: Int, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: "<n>", values: Wire.documented(range), defaultText: String(value),
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: value, parse: { try Wire.integer($0, key, in: range) })
    }
}

extension Option where Value == Bool {
    /// A yes/no flag (`yes`, `true`, `1` / `no`, `false`, `0`; absent is no).
    static func flag(_ key: String, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: "yes|no", values: "yes or no", defaultText: "no",
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: false, parse: { try Wire.flag($0, key) })
    }
}

extension Option where Value == String {
    /// One of `choices` (matched ignoring case, given lower-case), with a default.
    static func choice(_ key: String, _ choices: [String], default value: String, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: choices.joined(separator: "|"), values: Wire.orList(choices), defaultText: value,
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: value, parse: { try Wire.choice($0, key, choices) })
    }

    /// Text the command needs (`to=<id>` is a ``documentID(_:required:)``).
    static func text(_ key: String, placeholder: String, values: String, required meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: placeholder, values: values, defaultText: nil,
                             meaning: meaning, isRequired: true, alternatives: []),
            fallback: nil, parse: { $0 })
    }

    /// A document id the command needs.
    static func documentID(_ key: String, placeholder: String = "<id>", required meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: placeholder, values: "a document id", defaultText: nil,
                             meaning: meaning, isRequired: true, alternatives: []),
            fallback: nil, parse: { try Wire.documentID($0) })
    }
}

extension Option where Value == String? {
    /// One of `choices` (matched ignoring case, given lower-case), nil when absent.
    static func choice(_ key: String, _ choices: [String], _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: choices.joined(separator: "|"), values: Wire.orList(choices), defaultText: nil,
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: .some(nil), parse: { try Wire.choice($0, key, choices) })
    }

    /// Free text of 1 to `maximumLength` characters (any length if nil),
    /// nil when absent; `placeholder` and `values` say what it is.
    static func text(
        _ key: String, placeholder: String, values: String, maximumLength: Int? = nil, default value: String? = nil, _ meaning: String
    ) -> Option {
        Option(
            spec: OptionSpec(key: key, placeholder: placeholder, values: values, defaultText: value,
                             meaning: meaning, isRequired: false, alternatives: []),
            fallback: .some(nil),
            parse: { text in
                if let maximumLength, text.isEmpty || text.count > maximumLength {
                    throw ProtocolError(.arguments, "\(key) must be 1 to \(maximumLength) characters (got \(text.count))")
                }
                return text
            })
    }
}

extension Option where Value == Language? {
    /// A BCP 47 language tag (``Language/init(validating:)``), nil when absent.
    static func language(_ key: String, _ meaning: String) -> Option {
        Option(
            spec: OptionSpec(
                key: key, placeholder: "<code>",
                values: "a BCP 47 tag of a language ICU knows (en, ko, pt-BR, zh-Hant; at most \(Language.maximumTagLength) characters)",
                defaultText: nil, meaning: meaning, isRequired: false, alternatives: []),
            fallback: .some(nil),
            parse: { text in
                do {
                    return try Language(validating: text)
                } catch let error as Language.InvalidTag {
                    throw ProtocolError(.arguments, error.description)
                }
            })
    }
}

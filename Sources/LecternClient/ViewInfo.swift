// ViewInfo.swift: the summary of a laid-out view, from VIEW.

/// VIEW's reply: `OK VIEW id=intro revision=1 width=200 size=17
/// font="DejaVu Sans" requested="DejaVu Sans" substituted=no fonts="DejaVu Sans" lines=3 height=59.37`.
public struct ViewInfo: Hashable, Sendable {
    /// The document id.
    public var id: String
    /// The document revision laid out.
    public var revision: Int
    /// The view's width in points, insets included.
    public var width: Double
    /// The font size in points.
    public var size: Double
    /// The font family used.
    public var font: String
    /// The family asked for.
    public var requestedFont: String
    /// Whether ``font`` differs from ``requestedFont`` (not installed).
    public var substituted: Bool
    /// The families that drew the text, most graphemes first (VIEW's
    /// `fonts=`): fallback fonts included, so that an app drawing the text
    /// itself can load the same ones (LINES `runs=yes` names their files).
    /// Empty from a daemon older than the field.
    public var fonts: [String]
    /// Number of lines.
    public var lines: Int
    /// Height of the laid-out text, insets included, in points.
    public var height: Double

    init(_ fields: ReplyFields) throws {
        id = try fields.string("id")
        revision = try fields.int("revision")
        width = try fields.double("width")
        size = try fields.double("size")
        font = try fields.string("font")
        requestedFont = try fields.string("requested")
        substituted = try fields.bool("substituted")
        fonts = try fields.optional(fields.string, "fonts").map { $0.split(separator: ",").map(String.init) } ?? []
        lines = try fields.int("lines")
        height = try fields.double("height")
    }
}

// LineRuns.swift: a view's line table with the fonts and runs that draw it, from LINES runs=yes.

/// A view's lines with the runs on each and the fonts the runs use, so a
/// client can draw the same text with the same fonts where the daemon
/// measured it:
///
/// ```swift
/// let text = try await lectern.get("intro").text
/// let layout = try await lectern.lineRuns(of: "intro")
/// for line in layout.lines {
///     for run in line.runs {
///         let face = layout.fonts[run.font]  // load face.file (face face.faceIndex)
///         let characters = text.range(run.range, in: lectern.units)
///         // shape them in face at run.size and draw them from (run.x, line.baseline)
///     }
/// }
/// ```
public struct LineRuns: Hashable, Sendable {
    /// The fonts used, in VIEW's `fonts=` order (most graphemes first); a
    /// run's ``LineRun/font`` is an index into it (checked when the reply is read).
    public var fonts: [FontFace]
    /// The lines, top to bottom, each with its ``Line/runs`` in text order.
    public var lines: [Line]

    /// Reads `* font` lines, then `* line` lines each followed by its `* run`
    /// lines, and checks them against `OK LINES <n> runs=<r> fonts=<f>`.
    init(_ reply: Reply) throws {
        let status = try reply.fields()
        // A daemon older than runs= ignores the option and sends plain lines:
        // say so rather than return lines that seem to have no runs.
        guard status.has("runs") else {
            throw LecternError.malformedReply("LINES without runs= (the daemon does not report runs): \(status.line)")
        }
        var fonts: [FontFace] = []
        var lines: [Line] = []
        var runCount = 0
        for fields in try reply.dataFields() {
            switch try fields.word(at: 0) {
            case "font":
                guard try fields.int(at: 1) == fonts.count, lines.isEmpty else { throw fields.malformed("font out of order") }
                fonts.append(try FontFace(fields))
            case "line":
                lines.append(try Line(fields))
            case "run":
                let run = try LineRun(fields)
                guard let last = lines.indices.last, lines[last].number == run.line else { throw fields.malformed("run not after its line") }
                guard fonts.indices.contains(run.font) else { throw fields.malformed("run in a font not listed") }
                lines[last].runs.append(run)
                runCount += 1
            default:
                throw fields.malformed("not a font, line or run")
            }
        }
        guard try status.int(at: 1) == lines.count, try status.int("runs") == runCount, try status.int("fonts") == fonts.count else {
            throw status.malformed("counts differ from the data lines")
        }
        self.fonts = fonts
        self.lines = lines
    }
}

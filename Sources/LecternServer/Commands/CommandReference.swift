// CommandReference.swift: the parts of protocol/PROTOCOL.md generated from
// the command table, so the document cannot drift from the code.

import Foundation

/// Markdown made from the command table: PROTOCOL.md's "Options" table,
/// between ``optionsBegin`` and ``optionsEnd``. A test compares the two
/// and, with `LECTERN_UPDATE_PROTOCOL=1` (scripts/update-protocol-options),
/// writes the table into PROTOCOL.md.
enum CommandReference {
    static let optionsBegin = "<!-- options: generated from the command table by scripts/update-protocol-options; do not edit -->"
    static let optionsEnd = "<!-- end of options -->"

    /// One row per option of each command, in HELP's order, then the
    /// positional arguments that are numbers.
    static func optionsTable(_ commands: [Command]) -> String {
        var rows = [
            "| command | argument | values | default | what it does |",
            "|---|---|---|---|---|",
        ]
        for command in commands {
            for option in command.options {
                var values = option.values
                if option.isRequired {
                    values += option.alternatives.isEmpty
                        ? "; required" : "; this or " + option.alternatives.map { "`\($0)=`" }.joined(separator: " or ") + " required"
                }
                rows.append(row([command.name, "`\(option.synopsis)`", values, option.defaultText.map { "`\($0)`" } ?? "", option.meaning]))
            }
        }
        for argument in NumberArguments.all {
            rows.append(row([argument.commands, argument.arguments, argument.rule.documented, "", "positional"]))
        }
        return rows.joined(separator: "\n")
    }

    /// A table row, `|` inside a cell escaped.
    private static func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }

    /// `document` with its options block replaced by `table`; nil if it has no block.
    static func replacingOptions(in document: String, with table: String) -> String? {
        guard let begin = document.range(of: optionsBegin), let end = document.range(of: optionsEnd, range: begin.upperBound..<document.endIndex)
        else { return nil }
        return String(document[..<begin.upperBound]) + "\n" + table + "\n" + String(document[end.lowerBound...])
    }

    /// The options block of `document`, without its markers; nil if it has none.
    static func options(in document: String) -> String? {
        guard let begin = document.range(of: optionsBegin), let end = document.range(of: optionsEnd, range: begin.upperBound..<document.endIndex)
        else { return nil }
        return document[begin.upperBound..<end.lowerBound].trimmingCharacters(in: .newlines)
    }
}

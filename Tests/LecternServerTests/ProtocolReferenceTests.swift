// ProtocolReferenceTests.swift: protocol/PROTOCOL.md's option table and
// command synopses are what the command table generates (issue 18, item 1:
// HELP, PROTOCOL.md and the code state the same ranges, from one place).

import Foundation
@testable import LecternServer
import Testing

@Suite struct ProtocolReferenceTests {
    /// The "Options" table in "Values" is exactly the command table's.
    /// `LECTERN_UPDATE_PROTOCOL=1` (scripts/update-protocol-options)
    /// writes it into PROTOCOL.md first.
    @Test func theOptionsTableIsGeneratedFromTheCommandTable() throws {
        let url = protocolDirectory.appendingPathComponent("PROTOCOL.md")
        let table = CommandReference.optionsTable(Server.allCommands)
        if ProcessInfo.processInfo.environment["LECTERN_UPDATE_PROTOCOL"] == "1" {
            let spec = try String(contentsOf: url, encoding: .utf8)
            let updated = try #require(CommandReference.replacingOptions(in: spec, with: table), "PROTOCOL.md has no options markers")
            try updated.write(to: url, atomically: true, encoding: .utf8)
        }
        let documented = try #require(
            CommandReference.options(in: try String(contentsOf: url, encoding: .utf8)), "PROTOCOL.md has no options markers")
        #expect(documented == table, "PROTOCOL.md's options table is not the command table's; run scripts/update-protocol-options. It should be:\n\(table)")
    }

    /// Each command's section opens with its synopsis: the usage HELP and
    /// `ERR ARGS` give (lines joined, runs of blanks as one).
    @Test func everyCommandSectionOpensWithItsUsage() throws {
        let spec = try String(contentsOf: protocolDirectory.appendingPathComponent("PROTOCOL.md"), encoding: .utf8)
        for command in Server.allCommands {
            let section = try #require(spec.components(separatedBy: "\n### \(command.name)\n").dropFirst().first, "no section for \(command.name)")
            let block = try #require(section.components(separatedBy: "```").dropFirst().first, "no synopsis for \(command.name)")
            let synopsis = block.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            #expect(synopsis == command.usage, "\(command.name)")
        }
    }

    /// HELP <command> ends with one line per option, the words of the table.
    @Test func helpListsEachOptionWithItsRange() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let help = try client.request("HELP VIEW")
        #expect(help.first == "* VIEW <id> width=<pt> [size=<pt>] [font=<family>] [weight=<n>] [italic=yes|no] [line-height=auto|<n>x|<pt>] [paragraph-spacing=<pt>] [insets=<pt>|<v>,<h>|<t>,<l>,<b>,<r>] [default=yes|no]")
        #expect(help.contains("*   weight=<n>  100 to 900; default 400: the CSS font weight (400 regular, 700 bold)"))
        #expect(help.contains("*   width=<pt>  above 0, at most 100,000 points; required: the view's width, insets included"))
        let put = try client.request("HELP PUT")
        #expect(put.first == "* PUT <id> [lang=<code>] [mode=reader|uax29] (\"text\" | {bytes} | <<WORD)")
    }
}

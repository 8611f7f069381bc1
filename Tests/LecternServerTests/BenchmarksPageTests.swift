// BenchmarksPageTests.swift: BENCHMARKS.md reads as a reference (issue 18
// item 10): a summary first, a section per benchmark, links that land, and
// the history of the figures in one last section, not through the page.

import Foundation
import Testing

@Suite struct BenchmarksPageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func read(_ file: String) throws -> [String] {
        try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped,
    /// spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
            return nil
        })
    }

    /// The cells of a Markdown table row.
    private func cells(_ row: String) -> [String] {
        row.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
            .components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func theSummaryComesFirstWithAReferenceAndACommandPerRow() throws {
        let lines = try read("BENCHMARKS.md")
        let firstSection = try #require(lines.firstIndex { $0.hasPrefix("## ") })
        #expect(lines[firstSection] == "## Summary")
        let header = try #require(lines[firstSection...].firstIndex { $0.hasPrefix("|") })
        #expect(cells(lines[header]) == ["what is measured", "Lectern", "beside it, same run", "reproduce"])
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("|") }
        #expect(rows.count >= 10)
        for row in rows {
            let row = cells(row)
            #expect(row.count == 4, "\(row)")
            #expect(row.first?.contains("](#") == true, "a summary row links to its section: \(row)")
            #expect(row.last?.contains("`") == true, "a summary row gives the command: \(row)")
        }
    }

    @Test func everyLinkToASectionLands() throws {
        let benchmarks = try read("BENCHMARKS.md")
        let anchors = Set(benchmarks.filter { $0.hasPrefix("#") }.map { Self.anchor(String($0.drop(while: { $0 == "#" }).dropFirst())) })
        let readme = try read("README.md").joined(separator: "\n")
        var links: [String] = []
        for (text, prefix) in [(benchmarks.joined(separator: "\n"), "](#"), (readme, "](BENCHMARKS.md#")] {
            var rest = Substring(text)
            while let found = rest.range(of: prefix) {
                rest = rest[found.upperBound...]
                links.append(String(rest.prefix { $0 != ")" }))
            }
        }
        #expect(links.count >= 10)
        for link in links { #expect(anchors.contains(link), "no section #\(link) in BENCHMARKS.md") }
        #expect(readme.contains("](BENCHMARKS.md#summary)"))
    }

    /// Timestamps and commit hashes are the page's history: they live in
    /// the commit messages and at most in the last section.
    @Test func theHistoryIsInTheLastSectionOnly() throws {
        let lines = try read("BENCHMARKS.md")
        let last = try #require(lines.lastIndex { $0.hasPrefix("## ") })
        #expect(lines[last] == "## Where the figures come from")
        let hash = try Regex("`[0-9a-f]{7}`")
        for line in lines[..<last] {
            #expect(!line.contains(" UTC"), "\(line)")
            #expect(line.firstMatch(of: hash) == nil, "\(line)")
        }
    }
}

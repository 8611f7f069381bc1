// ReadmeSnippetTests.swift: the README's SDK example is code that compiles.

import Foundation
import Testing

@Suite struct ReadmeSnippetTests {
    /// The repository root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// ReadmeSnippet.swift is compiled with this target; the markdown's
    /// first swift block (after `import LecternClient` and a blank line)
    /// must be exactly its lines between the markers.
    @Test func markdownShowsTheCompiledSnippet() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/LecternClientTests/ReadmeSnippet.swift"), encoding: .utf8)
        let markdown = try String(contentsOf: Self.root.appendingPathComponent("examples/SDK-README-section.md"), encoding: .utf8)
        let sourceLines = source.components(separatedBy: "\n")
        let begin = try #require(sourceLines.firstIndex { $0.contains("// README-BEGIN") })
        let end = try #require(sourceLines.firstIndex { $0.contains("// README-END") })
        let snippet = sourceLines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }

        let markdownLines = markdown.components(separatedBy: "\n")
        let open = try #require(markdownLines.firstIndex(of: "```swift"))
        let close = try #require(markdownLines[(open + 1)...].firstIndex(of: "```"))
        let block = Array(markdownLines[(open + 1)..<close])
        #expect(block == ["import LecternClient", ""] + snippet)
        #expect(snippet.count <= 12)
    }
}

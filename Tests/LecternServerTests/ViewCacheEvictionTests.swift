// ViewCacheEvictionTests.swift: many more views of one document than its layout
// cache holds, from several connections, between edits and attachments: every
// TAP's geometry is that of a fresh layout of the tapping view.

import Foundation
import Testing
@testable import LecternServer
import LecternLayout
import LecternText

@Suite(.serialized) struct ViewCacheEvictionTests {
    /// What the daemon's document is, as the test changed it: the oracle's input.
    private struct Model {
        var text: String
        /// Attachments by name, as ATTACH gave them (UTF-16 offsets; nil: at the end).
        var attachments: [String: (offset: Int?, width: Double, height: Double)] = [:]

        /// The document, laid out afresh for `spec` in this process,
        /// sharing nothing with the daemon's caches.
        func freshLayout(_ spec: LayoutSpec, shaper: Shaper) throws -> (Document, TextLayout) {
            let content = try DocumentContent(utf8: Array(text.utf8), language: nil, mode: .reader)
            let end = content.text.utf16.count
            let boxes = attachments.map { name, box in
                InlineAttachment(name: name, offset: box.offset ?? end, width: box.width, height: box.height)
            }.sorted { $0.offset < $1.offset }
            let layout = LayoutService.compute(text: content.text.utf16, shaped: nil, spec: spec, attachments: boxes, shaper: shaper)
            return (Document(id: "doc", content: content, revision: 1), layout)
        }
    }

    /// A view the test sets: its VIEW arguments and its spec.
    private struct ViewChoice: Hashable {
        let width: Int
        let insets: Int
        var arguments: String { "width=\(width) insets=\(insets)" }
        var spec: LayoutSpec {
            LayoutSpec(width: Double(width), fontSize: 17, insets: EdgeInsets(all: Double(insets)))
        }
    }

    private static let texts = [
        "The lamp on the desk was still warm when she came back. Nobody had touched the book. "
            + "The page had turned on its own. She read the first line twice, slowly.\n"
            + "It said what she had feared: the river would rise before morning. Outside, the wind moved the shutters.",
        "A short one now. Then a longer sentence that wraps over several lines in the narrower views. "
            + "Three. Four follows three, as it always has, and five is next.\n"
            + "A new paragraph starts here. It ends here.",
    ]

    /// A reply without the watch events that came in among its lines.
    private func withoutEvents(_ lines: [String]) -> [String] { lines.filter { !$0.hasPrefix("!") } }

    @Test func everyTapAcrossMoreViewsThanTheCacheHoldsGetsItsOwnViewsGeometry() throws {
        let daemon = try Daemon()
        let connect = { try LineClient(port: daemon.port, timeoutSeconds: 60) }
        let setup = try connect()
        let shaper = try LayoutService().shaper
        var model = Model(text: Self.texts[0])
        func put(_ text: String) throws {
            let bytes = Array(text.utf8)
            setup.send(bytes: Array("PUT doc {\(bytes.count)}\n".utf8) + bytes + [0x0A])
            #expect(withoutEvents(try setup.readReply()).last?.hasPrefix("OK PUT id=doc ") == true)
            model.text = text
        }
        try put(model.text)

        // Four readers with views of their own (two of them watch, so each
        // TAP lays out and caches their views too, inside the TAP), and a
        // fifth that never sets a view and taps in the default one.
        let readers = try (0..<4).map { _ in try connect() }
        let stateless = try connect()
        for watcher in readers[2...] { #expect(withoutEvents(try watcher.request("WATCH doc")).last?.hasPrefix("OK WATCH") == true) }
        let choices = (0..<40).flatMap { k in [ViewChoice(width: 180 + 6 * k, insets: 0), ViewChoice(width: 183 + 6 * k, insets: 8)] }
        var current: [ViewChoice?] = Array(repeating: nil, count: readers.count)
        var defaultView: ViewChoice?
        var used: Set<ViewChoice> = []
        let points = [(5.0, 5.0), (60.0, 12.0), (140.0, 30.0), (30.0, 55.0), (200.0, 80.0), (90.0, 110.0)]
        var hits = 0
        var freshChecks = 0

        /// TAPs `point` on `client` in `view` and checks the reply against a
        /// layout made afresh; every fifth also against a new connection.
        func tap(_ client: LineClient, in view: ViewChoice, at point: (Double, Double), round: Int) throws {
            let reply = withoutEvents(try client.request("TAP doc \(point.0) \(point.1)"))
            let final = try #require(reply.last)
            let (document, layout) = try model.freshLayout(view.spec, shaper: shaper)
            switch PointHit(document: document, layout: layout, x: point.0, y: point.1, slop: 0) {
            case .sentence(let sentence, let hit):
                hits += 1
                #expect(final.hasPrefix("OK TAP hit sentence=\(sentence.number) offset=\(hit.offset) "), "round \(round) \(view): \(reply)")
                let expected = document.text.highlightLines(sentence, layout: layout, unit: .utf16).map { "* " + $0 }
                #expect(Array(reply.dropLast()) == expected, "round \(round) \(view)")
            case .attachment(let index, _):
                #expect(final.hasPrefix("OK TAP attachment name=\(layout.attachments[index].name) "), "round \(round) \(view): \(reply)")
            case .miss:
                #expect(final.hasPrefix("OK TAP miss "), "round \(round) \(view): \(reply)")
            }
            if round % 5 == 0 {
                // A new connection that sets only this view and taps gets the same reply.
                let fresh = try connect()
                #expect(withoutEvents(try fresh.request("VIEW doc \(view.arguments)")).last?.hasPrefix("OK VIEW") == true)
                #expect(withoutEvents(try fresh.request("TAP doc \(point.0) \(point.1)")) == reply, "round \(round) \(view)")
                freshChecks += 1
            }
        }

        var attachmentNumber = 0
        var viewChanges = 0
        for round in 0..<180 {
            let index = round % readers.count
            let reader = readers[index]
            // A new view for this reader every other turn, walking all the
            // choices in a stride that interleaves them among the readers.
            if current[index] == nil || round % 2 == 0 {
                let view = choices[(viewChanges * 37) % choices.count]
                viewChanges += 1
                let isDefault = index == 0 && round % 12 == 0
                let reply = withoutEvents(try reader.request("VIEW doc \(view.arguments)" + (isDefault ? " default=yes" : "")))
                #expect(reply.last?.hasPrefix("OK VIEW id=doc ") == true, "\(reply)")
                current[index] = view
                used.insert(view)
                if isDefault { defaultView = view }
            }
            let view = try #require(current[index])
            try tap(reader, in: view, at: points[round % points.count], round: round)
            try tap(reader, in: view, at: points[(round + 3) % points.count], round: round)
            if let defaultView { try tap(stateless, in: defaultView, at: points[(round + 1) % points.count], round: round) }

            // The document changes under the views: its text, its attachments.
            switch round % 9 {
            case 4:
                try put(Self.texts[(round / 9) % Self.texts.count])
            case 7:
                let name = "box\(attachmentNumber % 3)"
                let offset: Int? = [0, 20, nil, 45][attachmentNumber % 4]
                let (width, height) = (Double(10 + 7 * (attachmentNumber % 5)), Double(12 + 3 * (attachmentNumber % 4)))
                attachmentNumber += 1
                let at = offset.map(String.init) ?? "end"
                let reply = withoutEvents(try setup.request("ATTACH doc \(name) at=\(at) \(Int(width)) \(Int(height))"))
                #expect(reply.last?.hasPrefix("OK ATTACH name=\(name) ") == true, "\(reply)")
                model.attachments[name] = (offset, width, height)
            case 8 where round % 27 == 26:
                let name = try #require(model.attachments.keys.sorted().first)
                #expect(withoutEvents(try setup.request("DETACH doc \(name)")).last == "OK DETACH name=\(name)")
                model.attachments[name] = nil
            default:
                break
            }
        }
        #expect(used.count > LayoutCache.maximumCachedLayouts)
        #expect(hits > 200)
        #expect(freshChecks >= 36)
    }
}

// ViewTests.swift: VIEW, LINES, TAP, RECTS, CARET, ATTACH, DETACH, against a live daemon.

import Foundation
import Testing
@testable import LecternClient

@Suite struct ViewTests {
    static let intro = "Dr. Smith arrived at 5 p.m. today. He was late! Nobody minded."

    /// A connection with `intro` laid out 200 points wide, as in transcript 04.
    static func introView(_ daemon: LiveDaemon) async throws -> LecternConnection {
        let lectern = try await daemon.connect()
        try await lectern.put("intro", text: intro, language: "en")
        let view = try await lectern.view("intro", ViewOptions(width: 200, size: 17, font: "DejaVu Sans"))
        #expect(view.lines == 3)
        #expect(view.font == "DejaVu Sans")
        #expect(!view.substituted)
        #expect(view.fonts == ["DejaVu Sans"])
        #expect(view.height == 59.37)
        return lectern
    }

    @Test func viewReportsSubstitutionAndOptions() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        let options = ViewOptions(
            width: 320, size: 20, font: "No Such Font", weight: 400, italic: false, lineHeight: .multiple(1.5),
            paragraphSpacing: 4, insets: EdgeInsets(vertical: 10, horizontal: 16))
        let view = try await lectern.view("intro", options)
        #expect(view.substituted)
        #expect(view.requestedFont == "No Such Font")
        #expect(view.fonts == [view.font])
        #expect(view.width == 320)
        #expect(view.size == 20)
        let lines = try await lectern.lines(of: "intro")
        #expect(lines.first?.x == 16)
        #expect(lines.first?.top == 10)
    }

    /// Korean text in a Latin font is drawn by the fallback font, and the
    /// SDK says which (VIEW's `fonts=`).
    @Test func viewNamesTheFallbackFontThatDrawsKorean() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("ko", text: "아침에 일찍 일어났다. 날씨가 좋았다.", language: "ko")
        let view = try await lectern.view("ko", ViewOptions(width: 200, size: 17, font: "DejaVu Sans"))
        #expect(!view.substituted)
        #expect(view.fonts.first == "NanumGothic")
        #expect(view.fonts.contains("DejaVu Sans"))
    }

    @Test func linesTileAndCarryCarets() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        let lines = try await lectern.lines(of: "intro")
        #expect(lines.map(\.number) == [0, 1, 2])
        #expect(lines.map(\.range) == [0..<23, 23..<42, 42..<62])
        #expect(lines[1].top == lines[0].top + lines[0].height)
        #expect(lines[0].baseline == 15.78)
        #expect(lines[0].carets.count == 24)
        #expect(lines[0].carets.last == 188.49)
    }

    /// Korean and Latin (and Arabic) text in DejaVu Sans: `lineRuns(of:)`
    /// names NanumGothic for the Hangul and DejaVu Sans for the Latin, with
    /// font files that exist; each line's runs sit side by side, fill its
    /// width, and cover its visible text in text order; ranges are in the
    /// connection's unit. The lines are those `lines(of:)` gives.
    @Test(arguments: [OffsetUnit.utf16, .utf8])
    func lineRunsNameTheFontThatDrawsEachPartOfALine(units: OffsetUnit) async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.hello(units: units)
        let text = "Hi 안녕 there. 오늘은 날씨가 좋아서 we walked to the park together.\nمرحبا بالعالم and more."
        try await lectern.put("mixed", text: text)
        let view = try await lectern.view("mixed", ViewOptions(width: 200, size: 17, font: "DejaVu Sans"))
        let layout = try await lectern.lineRuns(of: "mixed")

        #expect(layout.fonts.map(\.family) == view.fonts)
        #expect(Set(layout.fonts.map(\.family)) == ["DejaVu Sans", "NanumGothic"])
        #expect(layout.fonts.filter(\.primary).map(\.family) == ["DejaVu Sans"])
        for face in layout.fonts {
            #expect(FileManager.default.fileExists(atPath: face.file), "\(face.family): \(face.file)")
            #expect(face.faceIndex >= 0)
            #expect(face.graphemes > 0)
        }
        let plain = try await lectern.lines(of: "mixed")
        #expect(layout.lines.map { line in var line = line; line.runs = []; return line } == plain)
        #expect(layout.lines.count == view.lines)

        // The first line starts as PROTOCOL.md's example: "Hi " in DejaVu Sans, "안녕 " in NanumGothic.
        let first = try #require(layout.lines.first?.runs.prefix(2))
        #expect(first.map(\.range) == (units == .utf8 ? [0..<3, 3..<10] : [0..<3, 3..<6]))
        #expect(first.map { layout.fonts[$0.font].family } == ["DejaVu Sans", "NanumGothic"])

        for line in layout.lines {
            let lineText = String(text[try #require(text.range(line.range, in: units))])
            let visible = lineText.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
            let visibleEnd = line.range.lowerBound + (units == .utf8 ? visible.utf8.count : visible.utf16.count)
            // Text order: one after the other, from the line's start to its last visible character.
            #expect(line.runs.first?.range.lowerBound == line.range.lowerBound)
            #expect(zip(line.runs, line.runs.dropFirst()).allSatisfy { $0.range.upperBound == $1.range.lowerBound })
            #expect(line.runs.last?.range.upperBound == visibleEnd, "line \(line.number): \(lineText)")
            // Side by side (in x order, which right-to-left runs reverse), filling the line's width.
            let byX = line.runs.sorted { $0.x < $1.x }
            for (left, right) in zip(byX, byX.dropFirst()) { #expect(abs(left.x + left.width - right.x) < 0.02) }
            #expect(abs((byX.first?.x ?? .nan) - line.x) < 0.02)
            #expect(abs((byX.last.map { $0.x + $0.width } ?? .nan) - (line.x + line.width)) < 0.02)
            for run in line.runs {
                #expect(run.line == line.number)
                #expect(run.size == 17)
                let scalars = String(text[try #require(text.range(run.range, in: units))]).unicodeScalars
                let family = layout.fonts[run.font].family
                if scalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) { #expect(family == "NanumGothic") }
                if scalars.contains(where: { $0.isASCII && $0.properties.isAlphabetic }) {
                    #expect(family == "DejaVu Sans")
                    #expect(run.direction == .ltr)
                }
                if scalars.contains(where: { (0x0600...0x06FF).contains($0.value) }) { #expect(run.direction == .rtl) }
            }
        }
        #expect(layout.lines.flatMap(\.runs).contains { $0.direction == .rtl })
    }

    @Test func lineRunsNeedAView() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("plain", text: "No view here.")
        do {
            _ = try await lectern.lineRuns(of: "plain")
            Issue.record("a document without a view has no runs")
        } catch let error as LecternError {
            #expect(error.code == .noView)
        }
    }

    @Test func tapHitsMissesAndFindsAttachments() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        guard case .hit(let highlight, let offset, let side, let distance) = try await lectern.tap("intro", at: Point(x: 30, y: 10)) else {
            Issue.record("expected a hit")
            return
        }
        #expect(highlight.sentence.number == 0)
        #expect(highlight.sentence.text == "Dr. Smith arrived at 5 p.m. today.")
        #expect(highlight.rects == [
            Rect(x: 0, y: 0, width: 183.08, height: 19.79), Rect(x: 0, y: 19.79, width: 94.88, height: 19.79),
        ])
        #expect(highlight.outline.polygons.count == 1)
        #expect(highlight.outline.polygons[0].first == Point(x: 183.08, y: 0))
        #expect(offset == 4)
        #expect(side == .leading)
        #expect(distance == 0)

        #expect(try await lectern.tap("intro", at: Point(x: 195, y: 50)) == .miss(distance: 10.45, nearestSentence: 2))
        let slop = try await lectern.tap("intro", at: Point(x: 195, y: 50), slop: 200)
        #expect(slop.highlight?.sentence.number == 2)

        let placement = try await lectern.attach("intro", name: "anim", at: .end, width: 30, height: 30)
        #expect(placement.name == "anim")
        #expect(placement.offset == 62)
        #expect(placement.rect == Rect(x: 69.5, y: 59.37, width: 30, height: 30))
        #expect(placement.line == 3)
        guard let box = placement.rect else { return }
        let onBox = try await lectern.tap("intro", at: box.center)
        #expect(onBox == .attachment(name: "anim", offset: 62, rect: box))
    }

    @Test func rectsOfASentenceOnTwoLinesHaveTwoPolygons() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        let highlight = try await lectern.rects("intro", sentence: 1)
        #expect(highlight.sentence.text == "He was late!")
        #expect(highlight.rects.count == 2)
        #expect(highlight.outline.polygons.count == 2)
        #expect(highlight.outline.polygons.allSatisfy { $0.count == 4 })
    }

    @Test func caretsWrapToTheNextLine() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        let start = try await lectern.caret("intro", at: 0)
        #expect(start.offset == 0)
        #expect(start.rect == Rect(x: -0.5, y: 0, width: 1, height: 19.79))
        #expect(start.line == 0)
        let caret = try await lectern.caret("intro", at: 34)
        #expect(caret.line == 1)
        #expect(caret.rect == Rect(x: 94.38, y: 19.79, width: 1, height: 19.79))
    }

    @Test func renderDrawsTheViewAsSVG() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await Self.introView(daemon)
        let rendering = try await lectern.render("intro", sentence: 1, caret: 34, boxes: true)
        #expect(rendering.svg.hasPrefix("<svg"))
        #expect(rendering.svg.hasSuffix("</svg>") || rendering.svg.hasSuffix("</svg>\n"))
        #expect(rendering.width == 200)
        #expect(rendering.height == 59.37)
        do {
            _ = try await lectern.render("intro", sentence: 9)
            Issue.record("sentence 9 does not exist")
        } catch let error as LecternError {
            #expect(error.code == .range)
        }
    }

    @Test func attachAtAnOffsetWithoutAViewAndDetach() async throws {
        let daemon = try LiveDaemon()
        let lectern = try await daemon.connect()
        try await lectern.put("plain", text: "No view here.")
        let placement = try await lectern.attach("plain", name: "star", at: .offset(3), width: 10, height: 10, baseline: -2)
        #expect(placement.offset == 3)
        #expect(placement.rect == nil)
        #expect(placement.line == nil)
        #expect(try await lectern.get("plain").info.attachments == 1)
        try await lectern.detach("plain", name: "star")
        await #expect(throws: LecternError.server(code: .noAttachment, message: "'plain' has no attachment 'star'")) {
            try await lectern.detach("plain", name: "star")
        }
    }
}

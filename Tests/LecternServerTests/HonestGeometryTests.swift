// HonestGeometryTests.swift: a client is told every font the layout uses, with the files to load
// and the runs each draws (VIEW fonts=, LINES runs=yes), and RENDER draws the shaped glyphs
// (issue 18 items 7 and 8), against a live daemon.

import CHarfBuzz
import Foundation
import Testing

@Suite struct HonestGeometryTests {
    /// `key=value` of a reply line (values unquoted, no escapes inside).
    static func field(_ key: String, in line: String) -> String? {
        guard let range = line.range(of: " \(key)=") else { return nil }
        let rest = line[range.upperBound...]
        if rest.first == "\"" {
            return String(rest.dropFirst().prefix { $0 != "\"" })
        }
        return String(rest.prefix { $0 != " " })
    }

    /// For all-Korean text in DejaVu Sans, NanumGothic draws every glyph:
    /// VIEW names it first, with DejaVu Sans (whose metrics the lines
    /// have) after it; `substituted` still says DejaVu Sans is installed.
    @Test func viewNamesTheFontsThatDrawTheText() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try daemon.connect()
        #expect(try client.request("PUT ko \"안녕하세요. 한국어 문장입니다.\" lang=ko").last?.hasPrefix("OK PUT") == true)
        let view = try #require(try client.request("VIEW ko width=300 font=\"DejaVu Sans\"").last)
        #expect(view.hasPrefix("OK VIEW id=ko "))
        #expect(view.contains(" font=\"DejaVu Sans\" requested=\"DejaVu Sans\" substituted=no fonts=\"NanumGothic,DejaVu Sans\" lines="), "\(view)")
        // Latin first when it draws the most.
        #expect(try client.request("PUT mixed \"Hello there, friend. 안녕.\"").last?.hasPrefix("OK PUT") == true)
        let mixed = try #require(try client.request("VIEW mixed width=300").last)
        #expect(Self.field("fonts", in: mixed) == "DejaVu Sans,NanumGothic", "\(mixed)")
        // A family that is not installed: substituted, and the fonts are the ones used.
        let missing = try #require(try client.request("VIEW ko width=300 font=\"No Such Font\"").last)
        #expect(missing.contains(" substituted=yes fonts=\"NanumGothic,DejaVu Sans\" "), "\(missing)")
    }

    /// LINES runs=yes gives each font's file and face index (a file that
    /// exists, holding that family), then after each line its runs, in the
    /// connection's offset unit, each with its font and size.
    @Test func linesGiveTheRunsAndTheFontFiles() throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try daemon.connect()
        #expect(try client.request("HELLO 1 units=utf8").last?.contains("units=utf8") == true)
        // "Hi " is 3 bytes, "안녕 " 7 (a space stays in the run before it), "there." 6.
        #expect(try client.request("PUT m \"Hi 안녕 there.\"").last?.hasPrefix("OK PUT") == true)
        let view = try #require(try client.request("VIEW m width=400 size=20").last)
        #expect(Self.field("fonts", in: view) == "DejaVu Sans,NanumGothic")
        let reply = try client.request("LINES m runs=yes")
        #expect(reply.last == "OK LINES 1 runs=3 fonts=2", "\(reply)")
        let fonts = reply.filter { $0.hasPrefix("* font ") }
        #expect(fonts.count == 2)
        #expect(fonts.first?.hasPrefix("* font 0 family=\"DejaVu Sans\" file=\"") == true)
        #expect(fonts.first?.hasSuffix(" index=0 graphemes=9 primary=yes") == true, "\(fonts)")
        #expect(fonts.last?.hasPrefix("* font 1 family=\"NanumGothic\" file=\"") == true)
        #expect(fonts.last?.hasSuffix(" index=0 graphemes=3 primary=no") == true, "\(fonts)")
        for font in fonts {
            let path = try #require(Self.field("file", in: font))
            #expect(FileManager.default.fileExists(atPath: path), "\(path)")
        }
        let runs = reply.filter { $0.hasPrefix("* run ") }
        #expect(runs.map { $0.split(separator: " ").prefix(5).joined(separator: " ") } == [
            "* run 0 range=0..3 font=0", "* run 0 range=3..10 font=1", "* run 0 range=10..16 font=0",
        ])
        #expect(runs.allSatisfy { $0.contains(" size=20 ") && $0.hasSuffix(" direction=ltr") })
        // Runs tile the line left to right.
        let xs = runs.compactMap { Self.field("x", in: $0).flatMap(Double.init) }
        let widths = runs.compactMap { Self.field("width", in: $0).flatMap(Double.init) }
        #expect(xs.count == 3 && widths.count == 3)
        if xs.count == 3, widths.count == 3 {
            #expect(xs[0] == 0)
            #expect(abs(xs[0] + widths[0] - xs[1]) < 0.02 && abs(xs[1] + widths[1] - xs[2]) < 0.02)
        }
        // Without runs=yes, LINES is as it was.
        #expect(try client.request("LINES m").last == "OK LINES 1")
        #expect(try client.request("LINES m runs=maybe").last?.hasPrefix("ERR ARGS runs must be yes or no") == true)
    }

    /// HarfBuzz's glyphs for `text` in the font file at `path`, shaped
    /// whole (the reference, made without the daemon).
    static func shapedGlyphs(_ text: String, path: String) -> [UInt32] {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { return [] }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, 0), let font = hb_font_create(face), let buffer = hb_buffer_create() else { return [] }
        defer {
            hb_buffer_destroy(buffer)
            hb_font_destroy(font)
            hb_face_destroy(face)
        }
        hb_buffer_add_utf8(buffer, text, -1, 0, -1)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count) else { return [] }
        return (0..<Int(count)).map { infos[$0].codepoint }
    }

    /// RENDER of an Arabic word and of a Devanagari conjunct: their glyphs
    /// as HarfBuzz shapes them in the font LINES names (joining forms; क्ष
    /// as one glyph and the i-matra before त्र), each outline defined once,
    /// no character left to the viewer's fonts. One `<text>` per character
    /// (what RENDER drew before) has neither.
    @Test(arguments: [
        ("مرحبا", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
        ("क्षत्रिय", "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"),
    ])
    func renderDrawsTheShapedGlyphs(word: String, knownPath: String) throws {
        let daemon = try Daemon(["--log-level", "warn"])
        let client = try daemon.connect()
        #expect(try client.request("PUT w \"\(word)\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("VIEW w width=300 size=30").last?.hasPrefix("OK VIEW") == true)
        // The font drawing the word is VIEW's first: DejaVu Sans has Arabic,
        // Lohit Devanagari (fonts-lohit-deva) the Devanagari.
        let lines = try client.request("LINES w runs=yes")
        let fontLine = lines.first { $0.hasPrefix("* font 0 ") }
        #expect(fontLine?.contains(" index=0 graphemes=") == true, "\(lines)")
        let path = fontLine.flatMap { Self.field("file", in: $0) } ?? knownPath
        let shaped = Self.shapedGlyphs(word, path: path)
        let perCharacter = word.unicodeScalars.flatMap { Self.shapedGlyphs(String($0), path: path) }
        #expect(!shaped.isEmpty && Set(shaped) != Set(perCharacter), "shaping changes the glyphs: \(shaped) vs \(perCharacter)")

        let render = try client.request("RENDER w")
        let status = try #require(render.last)
        #expect(status.hasPrefix("OK RENDER bytes="))
        let svg = render.dropFirst().dropLast().joined(separator: "\n")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(!svg.contains("<text"), "no character drawn as text")
        // Glyph ids as HarfBuzz shapes the word, in its visual order, in font 0.
        let used = svg.components(separatedBy: "<use href=\"#f0g").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(used.compactMap { UInt32($0) } == shaped, "\(used)")
        for glyph in Set(shaped) {
            #expect(svg.components(separatedBy: "<path id=\"f0g\(glyph)\" transform=\"scale(").count == 2, "glyph \(glyph) defined once")
        }
    }
}

// bench-layout: Lectern's layout engine against Pango 1.50 on the same text, fonts and width.
//
// usage: bench-layout [--pango-harness PATH] [--family NAME] [--size PT] [--width PT] [--new-width PT]
//                     [--show-line-differences N] [--svg PATH] [--profile-first-layout N]
// Prints, for a 1 KB and a 100 KB mixed Korean/English/Russian text: first
// layout (shape + break), relayout at a new width, one hit-test, and the rects
// of one sentence, for Lectern and (with --pango-harness) Pango, with ratios,
// plus how often line breaks and glyph-centre hit-tests agree. Timings are
// the best of many runs on both sides (hit-tests: the best batch, per call),
// the figure least disturbed by other work on a shared machine. With --svg,
// also writes the 1 KB view (sentences marked, one sentence highlighted, an
// inline attachment after the last word) as SVG, for examples/. With
// --profile-first-layout N, only repeats the 1 KB first layout N times and
// exits (a loop to run under perf or callgrind).
import Foundation
import LecternLayout
import LecternRandom

struct Options {
    var harness: String?
    var family = "DejaVu Sans"
    var size = 17.0
    var width = 200.0
    var newWidth = 260.0
    var showLineDifferences = 0
    var svgPath: String?
    var profileRepetitions = 0

    init(arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let flag = iterator.next() {
            guard let value = iterator.next() else { Self.usage("\(flag) needs a value") }
            switch flag {
            case "--pango-harness": harness = value
            case "--family": family = value
            case "--size": size = Double(value) ?? { Self.usage("--size: not a number: \(value)") }()
            case "--width": width = Double(value) ?? { Self.usage("--width: not a number: \(value)") }()
            case "--new-width": newWidth = Double(value) ?? { Self.usage("--new-width: not a number: \(value)") }()
            case "--svg": svgPath = value
            case "--profile-first-layout":
                profileRepetitions = Int(value) ?? { Self.usage("--profile-first-layout: not a number: \(value)") }()
            case "--show-line-differences":
                showLineDifferences = Int(value) ?? { Self.usage("--show-line-differences: not a number: \(value)") }()
            default: Self.usage("unknown flag \(flag)")
            }
        }
    }

    static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(Data("""
            bench-layout: \(message)
            usage: bench-layout [--pango-harness PATH] [--family NAME] [--size PT] [--width PT] [--new-width PT]
                   [--show-line-differences N] [--svg PATH] [--profile-first-layout N]

            """.utf8))
        exit(2)
    }
}

/// The best of `repetitions` timings of `body`, in microseconds: the run
/// least disturbed by other processes on a shared machine (the Pango harness
/// measures the same way).
func bestMicroseconds(_ repetitions: Int, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var best = Double.infinity
    for _ in 0..<repetitions {
        let elapsed = clock.measure(body)
        best = min(best, Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return best
}

func format(_ microseconds: Double) -> String {
    microseconds >= 1000 ? String(format: "%9.2f ms", microseconds / 1000) : String(format: "%9.3f µs", microseconds)
}

/// UTF-8 byte offset of every UTF-16 offset of `text` (count + 1 entries).
func utf8Offsets(of text: String) -> [Int] {
    var offsets: [Int] = []
    var bytes = 0
    for scalar in text.unicodeScalars {
        offsets.append(bytes)
        if scalar.value > 0xFFFF { offsets.append(bytes) }
        bytes += String(scalar).utf8.count
    }
    offsets.append(bytes)
    return offsets
}

func runCase(name: String, bytes: Int, options: Options, catalog: FontCatalog) {
    let bench = BenchText(utf8Bytes: bytes, seed: 42)
    let text = bench.text
    let units = Array(text.utf16)
    let font = FontSpec(family: options.family)
    let spec = LayoutSpec(font: font, width: options.width, fontSize: options.size)
    let newSpec = LayoutSpec(font: font, width: options.newWidth, fontSize: options.size)
    let repetitions = bytes > 10_000 ? 21 : 1001
    let shaper = Shaper(catalog: catalog)

    _ = TextLayout(shaped: shaper.shape(utf16: units, spec: font), spec: spec) // warm font caches
    var layout = TextLayout(shaped: shaper.shape(utf16: units, spec: font), spec: spec)
    let first = bestMicroseconds(repetitions) {
        layout = TextLayout(shaped: shaper.shape(utf16: units, spec: font), spec: spec)
    }
    let shaped = layout.shaped
    let shapedBefore = shaper.statistics
    var toggle = false
    let relayout = bestMicroseconds(repetitions) {
        toggle.toggle()
        layout = TextLayout(shaped: shaped, spec: toggle ? newSpec : spec)
    }
    precondition(shaper.statistics == shapedBefore, "relayout reshaped")
    layout = TextLayout(shaped: shaped, spec: spec)

    var random = SplitMix64(seed: 7)
    let hitCount = 200_000
    let points = (0..<hitCount).map { _ in (random.nextDouble(options.width), random.nextDouble(layout.height)) }
    var checksum = 0
    let batch = 1000
    var next = 0
    let hitTest = bestMicroseconds(hitCount / batch) {
        for (x, y) in points[next..<(next + batch)] { checksum &+= layout.hitTest(x: x, y: y).offset }
        next += batch
    } / Double(batch)

    let sentence = bench.sentences[bench.sentences.count / 2]
    var rectCount = 0
    let rects = bestMicroseconds(repetitions * 10) {
        rectCount = layout.selectionRects(for: sentence).count
    }

    if let path = options.svgPath, bytes < 10_000 {
        writeExample(bench: bench, shaped: shaped, spec: spec, sentence: sentence, to: path)
    }
    let resolution = catalog.resolve(font)
    print("== \(name): \(text.utf8.count) bytes UTF-8, \(units.count) UTF-16 units, \(shaped.graphemeCount) graphemes, "
        + "\(bench.sentences.count) sentences, \(options.family) \(options.size) pt, width \(options.width) pt")
    print("   Lectern: \(layout.lines.count) lines, \(shaped.runs.count) runs, fonts \(shaped.fonts.map(\.family)), "
        + "primary \(resolution.primary.path) (hit checksum \(checksum))")

    var pango: PangoReport?
    if let harness = options.harness {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-layout-\(bytes).txt")
        do { try Data(text.utf8).write(to: file) } catch {
            FileHandle.standardError.write(Data("bench-layout: cannot write \(file.path): \(error)\n".utf8))
        }
        let utf8 = utf8Offsets(of: text)
        pango = PangoReport.run(harness: harness, arguments: [
            file.path, options.family, String(options.size), String(options.width), String(options.newWidth),
            String(bytes > 10_000 ? 2_000 : 200_000), String(repetitions),
            String(utf8[sentence.lowerBound]), String(utf8[sentence.upperBound]),
        ])
        if let pango {
            print("   Pango \(pango.values["pango_version"] ?? "?"): \(pango.values["lines"] ?? "?") lines, "
                + "primary \(pango.values["font_file"] ?? "?")")
        }
        print("   " + "".padding(toLength: 22, withPad: " ", startingAt: 0) + "      Lectern        Pango   Pango/Lectern")
        let rows: [(String, Double, String, Double)] = [
            ("first layout", first, "first_layout_us", 4),
            ("relayout (new width)", relayout, "relayout_us", 50),
            ("hit-test", hitTest, "hit_test_us", bytes > 10_000 ? 1000 : 20),
            ("sentence rects", rects, "sentence_rects_us", 0),
        ]
        for (label, ours, key, target) in rows {
            let theirs = pango?.number(key)
            let ratio = theirs.map { $0 / max(ours, 1e-9) }
            let ratioText = ratio.map { String(format: "%9.1f×", $0) } ?? "        ?"
            let targetText = target > 0 ? String(format: "  (target ≥ %.0f×%@)", target,
                                                 (ratio ?? 0) >= target ? ", met" : ", NOT met") : ""
            print("   \(label.padding(toLength: 22, withPad: " ", startingAt: 0)) \(format(ours)) "
                + "\(theirs.map(format) ?? "           ?") \(ratioText)\(targetText)")
        }
        print("   sentence rects: Lectern \(rectCount), Pango \(pango?.values["sentence_rects"] ?? "?")")
        if let pango {
            printAgreement(layout: layout, pango: pango, utf8: utf8, showDifferences: options.showLineDifferences)
        }
    } else {
        print("   first layout \(format(first)), relayout \(format(relayout)), hit-test \(format(hitTest)), "
            + "sentence rects \(format(rects)) (\(rectCount) rects); pass --pango-harness for Pango")
    }
}

/// The view as SVG: every sentence start marked, one sentence highlighted
/// with its outline, a 30×30 attachment glued after the last word.
func writeExample(bench: BenchText, shaped: ShapedText, spec: LayoutSpec, sentence: Range<Int>, to path: String) {
    var padded = spec
    padded.insets = EdgeInsets(all: 12)
    padded.width += 24
    padded.lineHeight = .multiple(1.25)
    padded.paragraphSpacing = 8
    let end = shaped.utf16Count - 2 // before the final ".\n"
    let animation = InlineAttachment(name: "anim", offset: end, width: 30, height: 30, baselineOffset: 4)
    let layout = TextLayout(shaped: shaped, spec: padded, attachments: [animation])
    let svg = layout.renderSVG(SVGOptions(sentences: bench.sentences, highlights: [sentence], caret: sentence.lowerBound))
    do { try Data(svg.utf8).write(to: URL(fileURLWithPath: path)) } catch {
        FileHandle.standardError.write(Data("bench-layout: cannot write \(path): \(error)\n".utf8))
    }
}

/// Line-break agreement, then hit-tests at Pango's glyph centres on lines both engines broke identically.
func printAgreement(layout: TextLayout, pango: PangoReport, utf8: [Int], showDifferences: Int) {
    let ours = layout.lines.map { utf8[$0.textRange.lowerBound] }
    let ourEnds = Array(ours.dropFirst()) + [utf8.last ?? 0]
    let theirEnds = Array(pango.lineStarts.dropFirst()) + [utf8.last ?? 0]
    var identical: [Int: Int] = [:] // Pango line → Lectern line
    let ourIndex = Dictionary(ours.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    for (line, start) in pango.lineStarts.enumerated() {
        if let mine = ourIndex[start], ourEnds[mine] == theirEnds[line] { identical[line] = mine }
    }
    let bytes = Array(String(decoding: layout.shaped.text, as: UTF16.self).utf8)
    func show(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[max(0, min(start, bytes.count))..<max(0, min(end, bytes.count))], as: UTF8.self).debugDescription
    }
    var shown = 0
    for (line, start) in pango.lineStarts.enumerated() where identical[line] == nil && shown < showDifferences {
        shown += 1
        let mine = ours.lastIndex { $0 <= start } ?? 0
        print("   differs: Pango \(show(start, theirEnds[line]))")
        print("            Lectern \(show(ours[mine], ourEnds[mine]))")
    }
    var byteToUTF16: [Int: Int] = [:]
    for (unit, byte) in utf8.enumerated() where byteToUTF16[byte] == nil { byteToUTF16[byte] = unit }
    var compared = 0
    var agreed = 0
    for glyph in pango.glyphs {
        guard let mine = identical[glyph.line], byteToUTF16[glyph.index] != nil else { continue }
        let line = layout.lines[mine]
        let hit = layout.hitTest(x: glyph.x, y: line.top + line.height / 2)
        compared += 1
        if utf8[hit.grapheme.lowerBound] == glyph.hit { agreed += 1 }
    }
    print("   line breaks: \(identical.count) of \(pango.lineStarts.count) Pango lines identical "
        + "(Lectern has \(layout.lines.count))")
    print(String(format: "   hit-tests at Pango's glyph centres on identical lines: %d of %d agree (%.2f%%)",
                 agreed, compared, compared > 0 ? 100 * Double(agreed) / Double(compared) : 0))
}

/// Repeats the 1 KB first layout (shape + break) `repetitions` times, for a profiler.
func profileFirstLayout(options: Options, catalog: FontCatalog, repetitions: Int) {
    let units = Array(BenchText(utf8Bytes: 1024, seed: 42).text.utf16)
    let font = FontSpec(family: options.family)
    let spec = LayoutSpec(font: font, width: options.width, fontSize: options.size)
    let shaper = Shaper(catalog: catalog)
    var lines = 0
    for _ in 0..<repetitions {
        lines &+= TextLayout(shaped: shaper.shape(utf16: units, spec: font), spec: spec).lines.count
    }
    print("\(repetitions) first layouts, \(lines) lines in all")
}

let options = Options(arguments: CommandLine.arguments)
do {
    let catalog = try FontCatalog()
    if options.profileRepetitions > 0 {
        profileFirstLayout(options: options, catalog: catalog, repetitions: options.profileRepetitions)
        exit(0)
    }
    runCase(name: "1 KB", bytes: 1024, options: options, catalog: catalog)
    runCase(name: "100 KB", bytes: 102_400, options: options, catalog: catalog)
} catch {
    FileHandle.standardError.write(Data("bench-layout: \(error)\n".utf8))
    exit(1)
}

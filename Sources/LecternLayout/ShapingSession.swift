// ShapingSession.swift: one shaping pass: itemization by font, script and level, HarfBuzz, per-grapheme advances.
import CHarfBuzz
import CICU

/// The mutable state of one `Shaper.shape` call.
struct ShapingSession {
    let catalog: FontCatalog
    let resolution: FontResolution
    /// `resolution.primary`, also `fonts[0]` (which keeps it alive), and its
    /// BMP glyph table, read directly for the coverage check of every grapheme.
    private let primary: Font
    private let primaryGlyphs: UnsafePointer<UInt16>
    var fonts: [Font]
    var runs: [ShapedRun] = []
    var advances: [Float] = []
    /// Paragraphs, and their runs, copied from a previous result instead of shaped.
    private(set) var paragraphsReused = 0
    private(set) var runsReused = 0
    private var fontIndexByIdentity: [ObjectIdentifier: Int] = [:]
    /// Direct-mapped cache of fallback choices: slot `scalar % size` holds
    /// (scalar, font index + 1); 0 marks an empty slot.
    private var fallbackSlots = [UInt64](repeating: 0, count: Self.fallbackSlotCount)
    private static let fallbackSlotCount = 256
    private var emojiByScalar: [UInt32: Int] = [:]
    /// The spec's fallback order and the emoji family's, fetched once per call.
    private let fallbackChain: FontFallbackChain?
    private let emojiChain: FontFallbackChain?
    /// Font index (in `fonts`) of each fallback candidate used so far, or -1.
    private var fontIndexByCandidate: [Int]
    /// HarfBuzz script per ICU script code (codes are small), filled on first use.
    private var hbScripts = [hb_script_t?](repeating: nil, count: 256)
    /// Scratch, indexed by code unit: advance gathered per cluster, and cluster starts.
    private var unitAdvance: [Float]
    private var isClusterStart: [Bool]

    init(catalog: FontCatalog, resolution: FontResolution, count: Int) {
        self.catalog = catalog
        self.resolution = resolution
        self.primary = resolution.primary
        self.primaryGlyphs = resolution.primary.glyphTable.table
        self.fonts = [resolution.primary]
        fallbackChain = catalog.fallbackChain(for: resolution.spec)
        emojiChain = catalog.emojiChain()
        fontIndexByCandidate = [Int](repeating: -1, count: fallbackChain?.candidates.count ?? 0)
        fontIndexByIdentity[ObjectIdentifier(resolution.primary)] = 0
        unitAdvance = [Float](repeating: 0, count: count)
        isClusterStart = [Bool](repeating: false, count: count)
    }

    /// Shapes every paragraph, or copies it from `previous` when `previous`
    /// (shaped for the same spec) has a paragraph with exactly the same text:
    /// shaping is paragraph-local (HarfBuzz sees no context across a
    /// paragraph separator), so the copy equals what shaping would produce.
    mutating func shapeAll(text: UnsafeBufferPointer<UInt16>, analysis: TextAnalysis, reusing previous: ShapedText?) {
        advances = [Float](repeating: 0, count: analysis.graphemeCount)
        guard let buffer = hb_buffer_create() else { return }
        defer { hb_buffer_destroy(buffer) }
        let reusable = previous.flatMap { $0.resolution.spec == resolution.spec ? Self.paragraphsByText($0) : nil }
        for paragraph in analysis.paragraphs {
            let start = Int(analysis.graphemeStarts[paragraph.graphemes.lowerBound])
            let end = Int(analysis.graphemeStarts[paragraph.graphemes.upperBound])
            if let previous, let reusable, !paragraph.graphemes.isEmpty,
               let index = reusable[ArraySlice(UnsafeBufferPointer(rebasing: text[start..<end]))],
               copy(paragraph: index, of: previous, to: paragraph.graphemes) {
                paragraphsReused += 1
                continue
            }
            for (run, script) in itemize(paragraph.graphemes, text: text, analysis: analysis) {
                shape(run, script: script, text: text, paragraph: start..<end, analysis: analysis, buffer: buffer)
            }
        }
        for g in 0..<analysis.graphemeCount
        where !analysis.flags[g].isDisjoint(with: [.paragraphSeparator, .lineSeparator]) {
            advances[g] = 0
        }
    }

    /// Each non-empty paragraph's text → its index (the first, for repeated paragraphs).
    private static func paragraphsByText(_ shaped: ShapedText) -> [ArraySlice<UInt16>: Int] {
        var table: [ArraySlice<UInt16>: Int] = [:]
        for (index, paragraph) in shaped.paragraphs.enumerated() where !paragraph.graphemes.isEmpty {
            let start = Int(shaped.graphemeStarts[paragraph.graphemes.lowerBound])
            let end = Int(shaped.graphemeStarts[paragraph.graphemes.upperBound])
            if table[shaped.text[start..<end]] == nil { table[shaped.text[start..<end]] = index }
        }
        return table
    }

    /// Copies paragraph `index` of `previous` (same text) onto `graphemes`:
    /// advances and runs, shifted; fonts re-registered. False when the
    /// grapheme counts differ (never for equal text; checked defensively).
    private mutating func copy(paragraph index: Int, of previous: ShapedText, to graphemes: Range<Int>) -> Bool {
        let old = previous.paragraphs[index].graphemes
        guard old.count == graphemes.count else { return false }
        let shift = graphemes.lowerBound - old.lowerBound
        for g in old { advances[g + shift] = previous.advances[g] }
        var r = previous.runIndex(containingGrapheme: old.lowerBound)
        while r < previous.runs.count, previous.runs[r].graphemes.lowerBound < old.upperBound {
            let run = previous.runs[r]
            runs.append(ShapedRun(
                graphemes: (run.graphemes.lowerBound + shift)..<(run.graphemes.upperBound + shift),
                fontIndex: register(previous.fonts[run.fontIndex]), level: run.level, script: run.script))
            runsReused += 1
            r += 1
        }
        return true
    }

    /// Cuts graphemes into maximal runs of one font, script and level.
    /// - Returns: each run with its ICU script code (Common when it has no real script).
    private mutating func itemize(
        _ graphemes: Range<Int>, text: UnsafeBufferPointer<UInt16>, analysis: TextAnalysis
    ) -> [(ShapedRun, Int32)] {
        var items: [(ShapedRun, Int32)] = []
        guard !graphemes.isEmpty else { return items }
        var runStart = graphemes.lowerBound
        var runFont = -1
        var runScript: Int32 = 0
        var runLevel: UInt8 = 0
        analysis.graphemeStarts.withUnsafeBufferPointer { starts in
            analysis.flags.withUnsafeBufferPointer { flags in
                analysis.levels.withUnsafeBufferPointer { levels in
                    for g in graphemes {
                        let start = Int(starts[g])
                        let end = Int(starts[g + 1])
                        let scalar = Self.scalar(in: text, at: start, end: end)
                        let script = Self.script(of: scalar)
                        let isCommon = script <= 1 // Common, Inherited, or unknown
                        let level = levels.isEmpty ? 0 : levels[g]
                        let font = chooseFont(
                            scalar: scalar, text: text, start: start, end: end, flags: flags[g], current: runFont)
                        if runFont >= 0, font == runFont, level == runLevel,
                           isCommon || runScript <= 1 || runScript == script {
                            if runScript <= 1, !isCommon { runScript = script }
                            continue
                        }
                        if runFont >= 0 {
                            items.append((ShapedRun(graphemes: runStart..<g, fontIndex: runFont, level: runLevel),
                                          runScript))
                        }
                        runStart = g
                        runFont = font
                        runScript = script
                        runLevel = level
                    }
                }
            }
        }
        items.append((ShapedRun(graphemes: runStart..<graphemes.upperBound, fontIndex: runFont, level: runLevel),
                      runScript))
        return items
    }

    private mutating func chooseFont(
        scalar: UInt32, text: UnsafeBufferPointer<UInt16>, start: Int, end: Int,
        flags: GraphemeFlags, current: Int
    ) -> Int {
        if !flags.isDisjoint(with: [.paragraphSeparator, .lineSeparator]) { return max(current, 0) }
        let secondUnit = start + (scalar > 0xFFFF ? 2 : 1)
        // Nothing below U+203C is an emoji except digits, '#' and '*' in
        // keycap sequences and ©/® with VS16, all of which carry U+FE0F.
        let wantsEmoji = (secondUnit < end && text[secondUnit] == 0xFE0F)
            || (Self.mayHaveEmojiPresentation(scalar) && lc_is_emoji_presentation(scalar) != 0)
        if wantsEmoji {
            if let known = emojiByScalar[scalar] { if known >= 0 { return known } } else {
                var index = -1
                if let chain = emojiChain, chain.candidateIndex(covering: scalar) == 0,
                   let font = catalog.font(candidate: 0, of: chain) {
                    index = register(font)
                }
                emojiByScalar[scalar] = index
                if index >= 0 { return index }
            }
        }
        if Self.isSpaceOrControl(scalar, flags: flags), current >= 0, fonts[current].covers(scalar) { return current }
        if scalar <= 0xFFFF ? NominalGlyphTable.glyph(scalar, in: primaryGlyphs) != 0 : primary.covers(scalar) {
            return 0
        }
        let slot = Int(scalar % UInt32(Self.fallbackSlotCount))
        let entry = fallbackSlots[slot]
        if entry != 0, UInt32(truncatingIfNeeded: entry >> 32) == scalar {
            return Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
        }
        let index = fallbackIndex(for: scalar)
        fallbackSlots[slot] = UInt64(scalar) << 32 | UInt64(index + 1)
        return index
    }

    /// False for scalars that cannot have Emoji_Presentation, so that ICU is
    /// asked only about the rest. Unicode 15 (ICU 72) gives the property to
    /// U+231A…U+2B55 and to scalars from U+1F004 on; the filter keeps
    /// U+2000…U+2BFF and everything from U+1F000, a margin for later versions.
    @inline(__always)
    static func mayHaveEmojiPresentation(_ scalar: UInt32) -> Bool {
        (scalar >= 0x2000 && scalar <= 0x2BFF) || scalar >= 0x1_F000
    }

    /// Index in `fonts` of the first fallback candidate covering `scalar`
    /// (0, the primary, when none does). Coverage is read from fontconfig's
    /// charsets without locking; only a candidate's first use loads it.
    private mutating func fallbackIndex(for scalar: UInt32) -> Int {
        guard let chain = fallbackChain, let candidate = chain.candidateIndex(covering: scalar) else { return 0 }
        if fontIndexByCandidate[candidate] >= 0 { return fontIndexByCandidate[candidate] }
        let index = catalog.font(candidate: candidate, of: chain).map { register($0) } ?? 0
        fontIndexByCandidate[candidate] = index
        return index
    }

    private mutating func register(_ font: Font) -> Int {
        let id = ObjectIdentifier(font)
        if let index = fontIndexByIdentity[id] { return index }
        fonts.append(font)
        fontIndexByIdentity[id] = fonts.count - 1
        return fonts.count - 1
    }

    /// Shapes one run with HarfBuzz and turns glyph advances into grapheme
    /// advances. HarfBuzz gets the whole paragraph as context, so shaping
    /// sees across run edges but never across paragraphs.
    private mutating func shape(
        _ run: ShapedRun, script: Int32, text: UnsafeBufferPointer<UInt16>, paragraph: Range<Int>,
        analysis: TextAnalysis, buffer: OpaquePointer
    ) {
        var run = run
        if script > 1 { run.script = hbScript(script).rawValue }
        runs.append(run)
        let unitStart = Int(analysis.graphemeStarts[run.graphemes.lowerBound])
        let unitEnd = Int(analysis.graphemeStarts[run.graphemes.upperBound])
        let font = fonts[run.fontIndex]
        Self.shape(run, units: unitStart..<unitEnd, font: font, text: text, paragraph: paragraph, buffer: buffer)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return }
        let scale = 1 / Float(font.unitsPerEm)
        let graphemeStarts = analysis.graphemeStarts
        unitAdvance.withUnsafeMutableBufferPointer { unitAdvance in
            isClusterStart.withUnsafeMutableBufferPointer { isClusterStart in
                advances.withUnsafeMutableBufferPointer { advances in
                    for i in 0..<Int(count) {
                        let cluster = paragraph.lowerBound + Int(infos[i].cluster)
                        guard cluster >= unitStart, cluster < unitEnd else { continue }
                        unitAdvance[cluster] += Float(positions[i].x_advance) * scale
                        isClusterStart[cluster] = true
                    }
                    // A grapheme that does not start a cluster belongs to the previous
                    // grapheme's cluster (a ligature): the group's advance is shared evenly.
                    var groupStart = run.graphemes.lowerBound
                    var groupAdvance: Float = 0
                    for g in run.graphemes {
                        let start = Int(graphemeStarts[g])
                        let end = Int(graphemeStarts[g + 1])
                        var sum: Float = 0
                        for unit in start..<end { sum += unitAdvance[unit] }
                        if g > groupStart, !isClusterStart[start] {
                            groupAdvance += sum
                        } else {
                            Self.distribute(groupAdvance, over: groupStart..<g, into: advances)
                            groupStart = g
                            groupAdvance = sum
                        }
                    }
                    Self.distribute(groupAdvance, over: groupStart..<run.graphemes.upperBound, into: advances)
                    for unit in unitStart..<unitEnd {
                        unitAdvance[unit] = 0
                        isClusterStart[unit] = false
                    }
                }
            }
        }
    }

    /// Shapes the code units `units` of `run` into `buffer`, with the
    /// paragraph around them as context (for joining and contextual forms;
    /// clusters are relative to the paragraph's start). The one place a
    /// run's HarfBuzz call is made: shaping and the SVG renderer's glyphs
    /// (which shapes again rather than keep every glyph) cannot differ.
    static func shape(
        _ run: ShapedRun, units: Range<Int>, font: Font, text: UnsafeBufferPointer<UInt16>, paragraph: Range<Int>,
        buffer: OpaquePointer
    ) {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(
            buffer, text.baseAddress.map { $0 + paragraph.lowerBound }, Int32(paragraph.count),
            UInt32(units.lowerBound - paragraph.lowerBound), Int32(units.count))
        hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if run.script != 0 { hb_buffer_set_script(buffer, hb_script_t(rawValue: run.script)) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font.hbFont, buffer, nil, 0)
    }

    private static func distribute(_ advance: Float, over graphemes: Range<Int>, into advances: UnsafeMutableBufferPointer<Float>) {
        guard !graphemes.isEmpty else { return }
        // Most groups are one grapheme: skip the division (x / 1 == x exactly).
        let share = graphemes.count == 1 ? advance : advance / Float(graphemes.count)
        for g in graphemes { advances[g] = share }
    }

    private mutating func hbScript(_ script: Int32) -> hb_script_t {
        let cacheable = script >= 0 && Int(script) < hbScripts.count
        if cacheable, let known = hbScripts[Int(script)] { return known }
        let value = lc_script_code(script).map { hb_script_from_string($0, -1) } ?? HB_SCRIPT_UNKNOWN
        if cacheable { hbScripts[Int(script)] = value }
        return value
    }

    /// ICU script code (UScriptCode) of a scalar; the commonest blocks are
    /// answered from Unicode's Scripts.txt without a call into ICU.
    @inline(__always)
    static func script(of scalar: UInt32) -> Int32 {
        switch scalar {
        case 0x41...0x5A, 0x61...0x7A: return 25 // USCRIPT_LATIN
        case 0x00...0x7F: return 0 // USCRIPT_COMMON (ASCII non-letters)
        case 0x0400...0x0482: return 8 // USCRIPT_CYRILLIC
        case 0xAC00...0xD7A3: return 18 // USCRIPT_HANGUL (syllables)
        default: return lc_script(scalar)
        }
    }

    /// Spaces (hanging or not, e.g. U+00A0) and controls: what Pango calls
    /// non-graphic (`!g_unichar_isgraph`).
    static func isSpaceOrControl(_ scalar: UInt32, flags: GraphemeFlags) -> Bool {
        flags.contains(.hangingSpace) || scalar < 0x20 || scalar == 0xA0 || scalar == 0x202F || scalar == 0x2007
            || (scalar >= 0x7F && scalar < 0xA0) || (scalar >= 0x200B && scalar <= 0x200F)
    }

    /// The scalar starting at `start` (a lone surrogate is returned as is).
    static func scalar(in text: UnsafeBufferPointer<UInt16>, at start: Int, end: Int) -> UInt32 {
        let unit = UInt32(text[start])
        if unit & 0xFC00 == 0xD800, start + 1 < end {
            let low = UInt32(text[start + 1])
            if low & 0xFC00 == 0xDC00 { return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00) }
        }
        return unit
    }
}

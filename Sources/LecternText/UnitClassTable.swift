// UnitClassTable.swift: one byte of character classes per UTF-16 code unit,
// so the hot loops test a table entry instead of ranges and ICU calls.

/// Character classes of every UTF-16 code unit, precomputed once from
/// ``CharacterClass`` and ``TextDecoder/isSimple(_:)``: two tables of 64 KiB,
/// ``flags`` for the sentence scan and ``decoderFlags`` for the decoder,
/// each with its own bits (named below with the table they belong to).
///
/// Thread-safe: built on first use by Swift's lazy global initialisation.
enum UnitClassTable {
    /// White space and line ends (``CharacterClass/isWhiteSpace(_:)``). Bit 0,
    /// so that shifted onto ``koreanWordEnd`` it pairs a unit with the one
    /// after it (see ``ParagraphScan/run(_:)``).
    static let whiteSpace: UInt8 = 1
    static let terminator: UInt8 = 2
    /// Brackets and quotation marks (either side).
    static let pairing: UInt8 = 4
    /// Lone CR, NEL, LS: UAX #29 ends a sentence after them.
    static let lineSeparator: UInt8 = 8
    /// ``decoderFlags``: grapheme-simple (see ``TextDecoder/isSimple(_:)``);
    /// surrogates are not.
    static let simple: UInt8 = 16
    /// What a Korean sentence-final word can end with: a final syllable
    /// (다, 요, …) or a trailing decoration (ㅋ, ~, emoji).
    static let koreanWordEnd: UInt8 = 32
    /// The first syllable of a word that may continue a Korean clause
    /// (하, 했, 라, 보 …; see ``KoreanEndings/continuesClause(_:at:limit:flags:)``).
    static let koreanContinuationInitial: UInt8 = 64
    /// What may end a sentence without a terminator in informal writing:
    /// the start of a face (emoji, emoticon) and the em dash
    /// (``ParagraphScan/isInformalEnd(_:)``).
    static let informalEnd: UInt8 = 128
    /// ``decoderFlags``: what the decoder's fast path may copy: printable ASCII, and simple
    /// scalars from U+1000 (written in three bytes with a lead E1–EF; none
    /// below U+1000 is, so an overlong or garbled sequence that computes to
    /// such a value is never taken). See ``TextDecoder``.
    static let decoderFastPath: UInt8 = 128

    /// The sentence scan's flags of each code unit, in memory that lives as
    /// long as the process (never mutated after it is built), so hot loops
    /// index it without a closure.
    nonisolated(unsafe) static let flags: UnsafeBufferPointer<UInt8> = table { u in
        var flags: UInt8 = 0
        if CharacterClass.isWhiteSpace(u) { flags |= whiteSpace }
        if CharacterClass.terminator(u) != nil { flags |= terminator }
        if CharacterClass.isOpener(u) || CharacterClass.isCloser(u) { flags |= pairing }
        if CharacterClass.isLineSeparator(u) { flags |= lineSeparator }
        if KoreanEndings.isFinalSyllable(u) || KoreanEndings.isTrailer(u) { flags |= koreanWordEnd }
        if KoreanEndings.continuationInitials.contains(u) { flags |= koreanContinuationInitial }
        if ParagraphScan.isInformalEnd(u) { flags |= informalEnd }
        return flags
    }

    /// The decoder's flags of each code unit (``simple``,
    /// ``decoderFastPath``), likewise.
    nonisolated(unsafe) static let decoderFlags: UnsafeBufferPointer<UInt8> = table { u in
        let value = Int(u)
        var flags: UInt8 = 0
        if value < 0x80 || TextDecoder.isSimple(UInt32(value)) { flags |= simple }
        if (0x20...0x7E).contains(value) || (value >= 0x1000 && TextDecoder.isSimple(UInt32(value))) {
            flags |= decoderFastPath
        }
        return flags
    }

    private static func table(_ classify: (UInt16) -> UInt8) -> UnsafeBufferPointer<UInt8> {
        let table = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0x10000)
        for value in 0...0xFFFF { table[value] = classify(UInt16(value)) }
        return UnsafeBufferPointer(table)
    }
}

// UnitClassTable.swift: one byte of character classes per UTF-16 code unit,
// so the hot loops test a table entry instead of ranges and ICU calls.

/// Character classes of every UTF-16 code unit, precomputed once (64 KiB)
/// from ``CharacterClass`` and ``TextDecoder/isSimple(_:)``.
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
    /// Grapheme-simple (see ``TextDecoder/isSimple(_:)``); surrogates are not.
    static let simple: UInt8 = 16
    /// What a Korean sentence-final word can end with: a final syllable
    /// (다, 요, …) or a trailing decoration (ㅋ, ~, emoji).
    static let koreanWordEnd: UInt8 = 32
    /// The first syllable of a word that may continue a Korean clause
    /// (하, 했, 라, 보 …; see ``KoreanEndings/continuesClause(_:at:limit:flags:)``).
    static let koreanContinuationInitial: UInt8 = 64
    /// What the decoder's fast path may copy: printable ASCII, and simple
    /// scalars from U+1000 (written in three bytes with a lead E1–EF; none
    /// below U+1000 is, so an overlong or garbled sequence that computes to
    /// such a value is never taken). See ``TextDecoder``.
    static let decoderFastPath: UInt8 = 128

    /// The flags of each code unit, in memory that lives as long as the
    /// process (never mutated after it is built), so hot loops index it
    /// without a closure.
    nonisolated(unsafe) static let flags: UnsafeBufferPointer<UInt8> = {
        let table = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0x10000)
        for (index, value) in flagValues.enumerated() { table[index] = value }
        return UnsafeBufferPointer(table)
    }()

    private static var flagValues: [UInt8] {
        (0...0xFFFF).map { value in
        let u = UInt16(value)
        var flags: UInt8 = 0
        if CharacterClass.isWhiteSpace(u) { flags |= whiteSpace }
        if CharacterClass.terminator(u) != nil { flags |= terminator }
        if CharacterClass.isOpener(u) || CharacterClass.isCloser(u) { flags |= pairing }
        if CharacterClass.isLineSeparator(u) { flags |= lineSeparator }
        if value < 0x80 || TextDecoder.isSimple(UInt32(value)) { flags |= simple }
        if KoreanEndings.isFinalSyllable(u) || KoreanEndings.isTrailer(u) { flags |= koreanWordEnd }
        if KoreanEndings.continuationInitials.contains(u) { flags |= koreanContinuationInitial }
        if (0x20...0x7E).contains(value) || (value >= 0x1000 && TextDecoder.isSimple(UInt32(value))) {
            flags |= decoderFastPath
        }
        return flags
        }
    }
}

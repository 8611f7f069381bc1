// CharacterClass.swift: the character classes the sentence rules test, on
// UTF-16 code units, with ASCII and CJK fast paths before asking ICU.
import CICU

/// What a sentence terminator is, for the reader rules.
enum TerminatorKind: UInt8 {
    /// "." and its variants: ambiguous (abbreviations, numbers); UAX #29 ATerm.
    case period
    /// "…" or several periods.
    case ellipsis
    /// "!", "?", and other UAX #29 STerm characters that need a following space.
    case strong
    /// Full-width CJK terminators (。！？｡．), which need no following space.
    case cjk
}

/// Character tests used by the segmenters. All take UTF-16 code units and
/// treat surrogates as "other" unless they decode a scalar explicitly.
enum CharacterClass {
    /// Unicode White_Space (all such characters are in the BMP).
    @inline(__always)
    static func isWhiteSpace(_ u: UInt16) -> Bool {
        if u < 0x80 { return u == 0x20 || (u >= 0x09 && u <= 0x0D) }
        switch u {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// UAX #29 Sep other than LF (which ends a paragraph): lone CR, NEL, LS.
    @inline(__always)
    static func isLineSeparator(_ u: UInt16) -> Bool { u == 0x0D || u == 0x85 || u == 0x2028 }

    /// The terminator class of a code unit, or nil.
    @inline(__always)
    static func terminator(_ u: UInt16) -> TerminatorKind? {
        if u < 0x80 {
            switch u {
            case 0x2E: return .period
            case 0x21, 0x3F: return .strong
            default: return nil
            }
        }
        switch u {
        case 0x3002, 0xFF01, 0xFF1F, 0xFF61, 0xFF0E: return .cjk
        case 0x2026: return .ellipsis
        case 0x0400...0x04FF, 0x3040...0x30FF, 0x3400...0x9FFF, 0xAC00...0xD7A3, 0xD800...0xDFFF:
            return nil
        default:
            switch lc_sentence_break(UInt32(u)) {
            case 1: return .period   // U_SB_ATERM
            case 9: return .strong   // U_SB_STERM
            default: return nil
            }
        }
    }

    /// Closing quotes and brackets that may follow a terminator and belong to
    /// its sentence. Straight quotes count only when attached to the terminator.
    @inline(__always)
    static func isCloser(_ u: UInt16) -> Bool {
        switch u {
        case 0x22, 0x27, 0x29, 0x5D, 0x7D, 0xBB, 0x2019, 0x201D, 0x203A, 0x300D, 0x300F, 0x300B,
             0x3009, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301E, 0x301F, 0xFF09, 0xFF3D, 0xFF5D,
             0xFF02, 0xFF07, 0xFF63, 0x27E9:
            return true
        default:
            return false
        }
    }

    /// Closers that French typography separates from the text with a space.
    @inline(__always)
    static func isSpacedCloser(_ u: UInt16) -> Bool { u == 0xBB || u == 0x203A || u == 0x201D }

    /// Closers that are quotation marks (as opposed to brackets).
    @inline(__always)
    static func isClosingQuote(_ u: UInt16) -> Bool {
        switch u {
        case 0x22, 0x27, 0xBB, 0x2019, 0x201D, 0x203A, 0x300D, 0x300F, 0x300B, 0x3009, 0x301E, 0x301F,
             0xFF02, 0xFF07, 0xFF63:
            return true
        default:
            return false
        }
    }

    /// Opening quotes and brackets, and Spanish ¿ ¡, that may start a sentence.
    @inline(__always)
    static func isOpener(_ u: UInt16) -> Bool {
        switch u {
        case 0x22, 0x27, 0x28, 0x5B, 0x7B, 0xA1, 0xAB, 0xBF, 0x2018, 0x201A, 0x201C, 0x201E, 0x2039,
             0x300C, 0x300E, 0x300A, 0x3008, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D,
             0xFF08, 0xFF3B, 0xFF5B, 0xFF62, 0x27E8:
            return true
        default:
            return false
        }
    }

    /// Quotation marks that open in one convention and close in another:
    /// straight " ' (and full-width ＂ ＇) do both everywhere; “ ‘ « ‹ open
    /// English and French quotations but close German ones („so“, ‚so‘,
    /// »so«, ›so‹). Attached to the end of a word they close.
    @inline(__always)
    static func closesWhenAttached(_ u: UInt16) -> Bool {
        switch u {
        case 0x22, 0x27, 0xFF02, 0xFF07, 0x201C, 0x2018, 0xAB, 0x2039: return true
        default: return false
        }
    }

    @inline(__always)
    static func isDigit(_ u: UInt16) -> Bool { u >= 0x30 && u <= 0x39 }

    @inline(__always)
    static func isHangulSyllable(_ u: UInt16) -> Bool { u >= 0xAC00 && u <= 0xD7A3 }

    /// Han, kana or Hangul: scripts written without spaces after terminators
    /// (Korean uses spaces between words but not always after punctuation).
    @inline(__always)
    static func isCJK(_ u: UInt16) -> Bool {
        switch u {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xAC00...0xD7A3, 0xF900...0xFAFF:
            return true
        default:
            return false
        }
    }

    /// The scalar starting at `i` (a lone surrogate reads as U+FFFD).
    @inline(__always)
    static func scalar(at i: Int, in text: UnsafeBufferPointer<UInt16>) -> UInt32 {
        let u = UInt32(text[i])
        if u & 0xFC00 == 0xD800, i + 1 < text.count, text[i + 1] & 0xFC00 == 0xDC00 {
            return 0x10000 + ((u - 0xD800) << 10) + (UInt32(text[i + 1]) - 0xDC00)
        }
        return u & 0xF800 == 0xD800 ? 0xFFFD : u
    }

    @inline(__always)
    static func isLowercase(_ c: UInt32) -> Bool {
        if c < 0x80 { return c >= 0x61 && c <= 0x7A }
        if isHangulOrHan(c) { return false }
        return lc_is_lowercase(c) != 0
    }

    @inline(__always)
    static func isUppercase(_ c: UInt32) -> Bool {
        if c < 0x80 { return c >= 0x41 && c <= 0x5A }
        if isHangulOrHan(c) { return false }
        return lc_is_uppercase(c) != 0
    }

    @inline(__always)
    static func isLetter(_ c: UInt32) -> Bool {
        if c < 0x80 { return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        if isHangulOrHan(c) { return true }
        return lc_is_alphabetic(c) != 0
    }

    /// Hangul syllables and CJK Unified Ideographs: all assigned, all
    /// letters (Lo, so Alphabetic) and caseless, answered without asking ICU
    /// (Korean and Chinese text asks about little else).
    @inline(__always)
    private static func isHangulOrHan(_ c: UInt32) -> Bool {
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x4E00 && c <= 0x9FFF)
    }
}

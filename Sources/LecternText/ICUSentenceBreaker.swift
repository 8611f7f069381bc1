// ICUSentenceBreaker.swift: ICU's sentence iterator for one locale.
import CICU

/// ICU's sentence break iterator (UAX #29 plus the locale's tailoring).
///
/// Locale examples: `""` (root: plain UAX #29), `"en"`, `"en@ss=standard"`
/// (ICU's abbreviation suppressions). Used by ``SentenceMode/uax29`` and by
/// the benchmarks as the baseline.
///
/// An instance holds a mutable ICU iterator: use it from one thread at a time.
/// Opening one costs tens of microseconds, so reuse it across texts.
public final class ICUSentenceBreaker {
    private let iterator: OpaquePointer
    /// The ICU locale the iterator was opened with.
    public let locale: String

    /// Opens an iterator; nil if ICU cannot (unknown kind or no data).
    public init?(locale: String) {
        var error: Int32 = 0
        guard let opened = lc_break_open(LC_BREAK_SENTENCE, locale, nil, 0, &error), error <= 0 else {
            return nil
        }
        iterator = opened
        self.locale = locale
    }

    deinit { lc_break_close(iterator) }

    /// The version of the ICU library in use, e.g. "72.1".
    public static var icuVersion: String { String(cString: lc_icu_version()) }

    /// Calls `body` with every boundary strictly inside `range` of `text`, in
    /// order, as offsets of `text` (not of the range).
    /// - Complexity: O(n) in the range's length.
    public func forEachBoundary(in text: UnsafeBufferPointer<UInt16>, range: Range<Int>, _ body: (Int) -> Void) {
        guard let base = text.baseAddress, !range.isEmpty else { return }
        guard lc_break_set_text(iterator, base + range.lowerBound, Int32(range.count)) <= 0 else { return }
        _ = lc_break_first(iterator)
        var boundary = lc_break_next(iterator)
        while boundary != LC_BREAK_DONE, Int(boundary) < range.count {
            body(range.lowerBound + Int(boundary))
            boundary = lc_break_next(iterator)
        }
    }

    /// The boundaries strictly inside the whole text.
    public func boundaries(in utf16: [UInt16]) -> [Int] {
        var result: [Int] = []
        utf16.withUnsafeBufferPointer { text in
            forEachBoundary(in: text, range: 0..<text.count) { result.append($0) }
        }
        return result
    }
}

@available(*, unavailable)
extension ICUSentenceBreaker: Sendable {}

// Shaper.swift: the thread-safe entry point to shaping: text + FontSpec → ShapedText.
import Foundation

/// Turns text plus a `FontSpec` into a `ShapedText`.
///
/// Itemization: each paragraph is cut into runs of one font, one script and
/// one BiDi level. A grapheme takes the primary font when it covers the
/// grapheme's first scalar, else the fallback font (`FontCatalog`); emoji
/// presentation graphemes prefer the colour emoji font; spaces and other
/// non-graphic characters stay in the current run's font when it covers
/// them, as in Pango (`pango_itemize`), so a Korean sentence is not split at
/// every space. Punctuation takes the first font that covers it, as in Pango.
///
/// Thread safety: `shape` may run on any thread, several at once (each call
/// uses its own HarfBuzz buffer; fonts are immutable; the catalog locks).
public final class Shaper: @unchecked Sendable {
    public let catalog: FontCatalog
    private let lock = NSLock()
    private var counters = ShapingStatistics()
    private let iterators = BreakIteratorPool()

    public init(catalog: FontCatalog) {
        self.catalog = catalog
    }

    /// Totals since creation.
    public var statistics: ShapingStatistics {
        lock.lock()
        defer { lock.unlock() }
        return counters
    }

    /// Shapes a Swift string (converted to UTF-16 once).
    /// - Complexity: O(n) in the text length, dominated by HarfBuzz.
    public func shape(_ text: String, spec: FontSpec) -> ShapedText {
        shape(utf16: Array(text.utf16), spec: spec)
    }

    /// Shapes UTF-16 text for `spec`. Never fails: unknown families are
    /// substituted (see `FontResolution.isSubstitute`), characters no font
    /// covers get the primary font's `.notdef` advance.
    /// - Complexity: O(n) in the text length, dominated by HarfBuzz.
    public func shape(utf16 text: [UInt16], spec: FontSpec) -> ShapedText {
        shape(utf16: text, spec: spec, reusing: nil)
    }

    /// Shapes an edited text, copying every paragraph whose text is unchanged
    /// from `previous` (shaped for the same spec) instead of shaping it
    /// again: an edit to one paragraph of a long document reshapes only that
    /// paragraph. The result equals `shape(utf16:spec:)` (shaping is
    /// paragraph-local). `previous` for another spec is ignored.
    /// - Complexity: O(n) segmentation and hashing, plus shaping of the changed paragraphs.
    public func shape(utf16 text: [UInt16], spec: FontSpec, reusing previous: ShapedText?) -> ShapedText {
        let resolution = catalog.resolve(spec)
        var session = ShapingSession(catalog: catalog, resolution: resolution, count: text.count)
        let analysis = text.withUnsafeBufferPointer { buffer in
            let analysis = TextAnalysis(text: buffer, iterators: iterators)
            session.shapeAll(text: buffer, analysis: analysis, reusing: previous)
            return analysis
        }
        lock.lock()
        counters.textsShaped += 1
        counters.runsShaped += session.runs.count - session.runsReused
        counters.paragraphsReused += session.paragraphsReused
        lock.unlock()
        return ShapedText(
            text: text, resolution: resolution, fonts: session.fonts, runs: session.runs,
            analysis: analysis, advances: session.advances)
    }
}

// FontCatalog.swift: fontconfig lookup, per-character fallback, shared loaded fonts.
import CHarfBuzz
import Foundation

/// The font database: looks families up through fontconfig, chooses a
/// fallback font per character, and loads each font file once.
///
/// Usage:
/// ```swift
/// let catalog = try FontCatalog()
/// let resolution = catalog.resolve(FontSpec(family: "DejaVu Sans"))
/// if resolution.isSubstitute { /* tell the client */ }
/// ```
///
/// Fallback order is fontconfig's sort order for the spec (`FcFontSort`), so a
/// paragraph can mix Latin, Cyrillic, Hangul, kana, Han and emoji. Graphemes
/// with emoji presentation prefer the `emoji` family (Noto Color Emoji).
///
/// Thread safety: every method may be called from any thread (the loop thread
/// or a `uv_queue_work` thread); one lock guards fontconfig and the caches.
/// The `Font` objects handed out are immutable and safe to share.
public final class FontCatalog: @unchecked Sendable {
    /// Generic family names that fontconfig always satisfies; never reported as substitutes.
    public static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive", "fantasy",
    ]

    private let lock = NSLock()
    private let config: OpaquePointer
    private var chains: [FontSpec: FontFallbackChain] = [:]
    private var resolutions: [FontSpec: FontResolution] = [:]
    private var fontsByFile: [String: Font] = [:]
    /// fontconfig's default sans-serif font, loaded at init; the last resort.
    private var defaultFont: Font?

    /// Loads fontconfig's configuration and font list.
    /// - Throws: `FontCatalogError` when fontconfig is unusable or has no fonts.
    /// - Complexity: reads fontconfig's caches once (milliseconds).
    public init() throws {
        guard let config = FcInitLoadConfigAndFonts() else { throw FontCatalogError.fontconfigUnavailable }
        self.config = config
        lock.lock()
        defer { lock.unlock() }
        guard let font = firstLoadableLocked(for: .defaultSans)?.font else {
            FcConfigDestroy(config)
            throw FontCatalogError.noFonts
        }
        defaultFont = font
    }

    deinit {
        chains.removeAll()
        FcConfigDestroy(config)
    }

    /// Resolves a spec to its primary font. Never fails: an unknown family
    /// resolves to the default sans-serif font with `isSubstitute == true`.
    /// - Complexity: O(1) after the first call for a spec.
    public func resolve(_ spec: FontSpec) -> FontResolution {
        lock.lock()
        defer { lock.unlock() }
        return resolveLocked(spec)
    }

    /// The font to draw `scalar` with when `resolution.primary` lacks it:
    /// the first font in the spec's fallback order that covers it, or nil
    /// when no installed font does (the primary's `.notdef` box is used then).
    /// - Complexity: O(fallback candidates); shaping caches the answers.
    func fallbackFont(for scalar: UInt32, spec: FontSpec) -> Font? {
        guard let chain = fallbackChain(for: spec), let index = chain.candidateIndex(covering: scalar) else {
            return nil
        }
        return font(candidate: index, of: chain)
    }

    /// The colour emoji font when it covers `scalar`, else nil.
    func emojiFont(for scalar: UInt32) -> Font? {
        guard let chain = emojiChain(), chain.candidateIndex(covering: scalar) == 0 else { return nil }
        return font(candidate: 0, of: chain)
    }

    /// The fallback order for `spec` (the default's when fontconfig has none for it).
    func fallbackChain(for spec: FontSpec) -> FontFallbackChain? {
        lock.lock()
        defer { lock.unlock() }
        return chainLocked(for: spec) ?? chainLocked(for: .defaultSans)
    }

    /// The fallback order of the `emoji` generic family (Noto Color Emoji first).
    func emojiChain() -> FontFallbackChain? {
        lock.lock()
        defer { lock.unlock() }
        return chainLocked(for: Self.emojiSpec)
    }

    private static let emojiSpec = FontSpec(family: "emoji")

    /// Candidate `index` of `chain`, loaded on first use and shared.
    func font(candidate index: Int, of chain: FontFallbackChain) -> Font? {
        lock.lock()
        defer { lock.unlock() }
        if let font = chain.loaded[index] { return font }
        guard chain.candidates.indices.contains(index), let font = loadLocked(chain.candidates[index]) else {
            return nil
        }
        chain.loaded[index] = font
        return font
    }

    private func resolveLocked(_ spec: FontSpec) -> FontResolution {
        if let known = resolutions[spec] { return known }
        let resolution: FontResolution
        if let (font, names) = firstLoadableLocked(for: spec) {
            let requested = spec.family.lowercased()
            let installed = names.contains { $0.lowercased() == requested }
                || Self.genericFamilies.contains(requested)
            resolution = FontResolution(spec: spec, primary: font, isSubstitute: !installed)
        } else if let font = defaultFont {
            resolution = FontResolution(spec: spec, primary: font, isSubstitute: true)
        } else {
            preconditionFailure("FontCatalog.init guarantees a default font")
        }
        resolutions[spec] = resolution
        return resolution
    }

    /// The first candidate for `spec` that loads, with all its family names.
    private func firstLoadableLocked(for spec: FontSpec) -> (font: Font, familyNames: [String])? {
        guard let chain = chainLocked(for: spec) else { return nil }
        for (index, candidate) in chain.candidates.enumerated() {
            if let font = loadLocked(candidate) { return (font, chain.familyNames(of: index)) }
        }
        return nil
    }

    private func chainLocked(for spec: FontSpec) -> FontFallbackChain? {
        if let chain = chains[spec] { return chain }
        guard let pattern = FcPatternCreate() else { return nil }
        _ = spec.family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: 1) { FcPatternAddString(pattern, "family", $0) }
        }
        let weight = FcWeightFromOpenType(Int32(max(100, min(900, spec.weight))))
        _ = FcPatternAddInteger(pattern, "weight", weight)
        _ = FcPatternAddInteger(pattern, "slant", spec.italic ? 100 : 0) // FC_SLANT_ITALIC / ROMAN
        guard let chain = FontFallbackChain(config: config, pattern: pattern) else { return nil }
        chains[spec] = chain
        return chain
    }

    private func loadLocked(_ candidate: FontFallbackChain.Candidate) -> Font? {
        let key = "\(candidate.path)#\(candidate.faceIndex)"
        if let font = fontsByFile[key] { return font }
        guard let font = Font(path: candidate.path, faceIndex: candidate.faceIndex, family: candidate.family)
        else { return nil }
        fontsByFile[key] = font
        return font
    }
}

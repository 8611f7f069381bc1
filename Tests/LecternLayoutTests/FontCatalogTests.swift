import Testing
@testable import LecternLayout

@Suite struct FontCatalogTests {
    @Test func resolvesInstalledFamily() throws {
        let catalog = try FontCatalog()
        let resolution = catalog.resolve(FontSpec(family: "DejaVu Sans"))
        #expect(!resolution.isSubstitute)
        #expect(resolution.matchedFamily == "DejaVu Sans")
        #expect(resolution.primary.ascent > 0.5 && resolution.primary.descent > 0.1)
    }

    @Test func missingFamilyFallsBackAndSaysSo() throws {
        let catalog = try FontCatalog()
        let resolution = catalog.resolve(FontSpec(family: "No Such Font 12345"))
        #expect(resolution.isSubstitute)
        #expect(resolution.primary.covers(0x41))
    }

    @Test func genericFamilyIsNotASubstitute() throws {
        let catalog = try FontCatalog()
        #expect(!catalog.resolve(FontSpec(family: "sans-serif")).isSubstitute)
    }

    @Test func fallsBackPerCharacter() throws {
        let catalog = try FontCatalog()
        let spec = FontSpec(family: "DejaVu Sans")
        #expect(catalog.fallbackFont(for: 0xD55C, spec: spec)?.family.hasPrefix("Nanum") == true) // 한
        #expect(catalog.fallbackFont(for: 0x3042, spec: spec)?.covers(0x3042) == true) // あ
        #expect(catalog.emojiFont(for: 0x1F600)?.family == "Noto Color Emoji")
    }
}

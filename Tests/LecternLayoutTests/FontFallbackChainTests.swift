import CHarfBuzz
import Testing
@testable import LecternLayout

@Suite struct FontFallbackChainTests {
    /// The page index only skips candidates that cannot cover a scalar: for
    /// every BMP scalar the answer equals asking every candidate in order.
    @Test func pageIndexAgreesWithAskingEveryCandidate() throws {
        let catalog = Fixtures.catalog
        for chain in [catalog.fallbackChain(for: .defaultSans), catalog.fallbackChain(for: Fixtures.dejaVu),
                      catalog.emojiChain()].compactMap({ $0 }) {
            var mismatches = 0
            for scalar in UInt32(0)...0xFFFF {
                let expected = chain.candidates.firstIndex { candidate in
                    candidate.charset.map { FcCharSetHasChar($0, scalar) != 0 } ?? false
                }
                if chain.candidateIndex(covering: scalar) != expected { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }
}

import Foundation
@testable import LecternLayout

/// One font catalog and shaper for all tests (fontconfig start-up is not free).
enum Fixtures {
    static let catalog: FontCatalog = {
        do { return try FontCatalog() } catch { fatalError("fontconfig unusable in tests: \(error)") }
    }()
    static let shaper = Shaper(catalog: catalog)
    static let dejaVu = FontSpec(family: "DejaVu Sans")

    static func layout(
        _ text: String, width: Double, fontSize: Double = 17, attachments: [InlineAttachment] = [],
        lineHeight: LineHeight = .fontDefault, insets: EdgeInsets = .zero, paragraphSpacing: Double = 0
    ) -> TextLayout {
        let shaped = shaper.shape(text, spec: dejaVu)
        let spec = LayoutSpec(
            font: dejaVu, width: width, fontSize: fontSize, lineHeight: lineHeight,
            paragraphSpacing: paragraphSpacing, insets: insets)
        return TextLayout(shaped: shaped, spec: spec, attachments: attachments)
    }

    /// The text of each line, trailing spaces and separators included.
    static func lineTexts(_ layout: TextLayout) -> [String] {
        layout.lines.map { line in
            String(decoding: layout.shaped.text[line.textRange], as: UTF16.self)
        }
    }
}

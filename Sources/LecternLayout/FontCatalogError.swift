// FontCatalogError.swift: why the font database could not start.

/// Errors from setting up the font database.
public enum FontCatalogError: Error, Equatable, CustomStringConvertible {
    /// fontconfig could not load its configuration.
    case fontconfigUnavailable
    /// fontconfig knows no font at all (not even a default).
    case noFonts

    public var description: String {
        switch self {
        case .fontconfigUnavailable: return "fontconfig could not load its configuration"
        case .noFonts: return "no usable font is installed"
        }
    }
}

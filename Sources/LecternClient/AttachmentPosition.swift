// AttachmentPosition.swift: where an inline attachment goes.

/// Where an inline attachment goes.
public enum AttachmentPosition: Hashable, Sendable {
    /// At an offset in the connection's unit (a character boundary).
    case offset(Int)
    /// Glued to the end of the text, following it when the text changes.
    case end

    var wire: String {
        switch self {
        case .offset(let offset): return String(offset)
        case .end: return "end"
        }
    }
}

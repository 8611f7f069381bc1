// Lectern.swift: facts about this build of the daemon.

/// Version facts reported by `lecternd --version` and, later, `HELLO`.
public enum Lectern {
    /// The daemon's version.
    public static let version = "0.1.0"
}

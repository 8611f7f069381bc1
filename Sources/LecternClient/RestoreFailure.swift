// RestoreFailure.swift: a request that restoring a connection could not repeat.

/// A request that restoring a connection could not repeat.
public struct RestoreFailure: Hashable, Sendable, CustomStringConvertible {
    /// What was being restored (`VIEW intro`, `WATCH intro`, `prepare`).
    public var request: String
    /// Why it failed.
    public var error: LecternError

    /// `request: error`, for logs.
    public var description: String { "\(request): \(error)" }
}

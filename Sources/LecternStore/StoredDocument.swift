// StoredDocument.swift: a document as the store returns it, with its revision.

import Foundation

/// A document the store has committed: the caller's ``DocumentRecord`` plus
/// the store's bookkeeping.
public struct StoredDocument: Hashable, Sendable {
    /// The document as last written.
    public var record: DocumentRecord
    /// The store-wide revision of the write that produced this version. Every
    /// committed write (put, attachment change) takes the next revision, so
    /// revisions increase strictly across the whole store and are never
    /// reused, even after a delete or a restart.
    public var revision: Int64
    /// When the write that produced this version committed, in whole
    /// milliseconds since 1970 (whole milliseconds so that it round-trips
    /// through the database exactly).
    public var updatedAtMilliseconds: Int64

    /// Creates a stored document; stores call this, callers receive it.
    public init(record: DocumentRecord, revision: Int64, updatedAtMilliseconds: Int64) {
        self.record = record
        self.revision = revision
        self.updatedAtMilliseconds = updatedAtMilliseconds
    }

    /// The document's id (``DocumentRecord/id``).
    public var id: String { record.id }

    /// ``updatedAtMilliseconds`` as a `Date`.
    public var updatedAt: Date {
        Date(timeIntervalSince1970: Double(updatedAtMilliseconds) / 1000)
    }

    /// The current wall-clock time in whole milliseconds since 1970, the
    /// value stores put in ``updatedAtMilliseconds``.
    static func currentTimeMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

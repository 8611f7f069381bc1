// DecodingWork.swift: what decoding has cost, in bytes touched, so that
// tests can show a decoder is linear without timing it.

/// Bytes a decoder has scanned and copied since it was made.
///
/// A decoder that is linear in its input scans and copies each byte a
/// small constant number of times, however the input is split into
/// reads; a quadratic one (re-copying a growing payload per line,
/// re-scanning a growing buffer per read) shows here as a count that grows
/// with the square of the input. Counting costs an addition or two per
/// read, line or payload, never a pass over the bytes.
public struct DecodingWork: Equatable, Sendable {
    /// Bytes looked at: searched for a line end, parsed as a header.
    public var bytesScanned = 0
    /// Bytes moved: appended to a buffer, moved by compaction or by a
    /// reallocation (growth or copy-on-write), copied into a payload.
    public var bytesCopied = 0

    public init(bytesScanned: Int = 0, bytesCopied: Int = 0) {
        self.bytesScanned = bytesScanned
        self.bytesCopied = bytesCopied
    }

    static func + (left: DecodingWork, right: DecodingWork) -> DecodingWork {
        DecodingWork(bytesScanned: left.bytesScanned + right.bytesScanned, bytesCopied: left.bytesCopied + right.bytesCopied)
    }
}

extension Array where Element == UInt8 {
    /// Where the storage is, only to be compared (never read through): an
    /// array whose storage moved between two calls was reallocated, which
    /// copied every byte it held.
    var storageIdentity: UnsafeRawPointer? {
        withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    /// Appends `bytes` and returns the bytes that moved: those appended,
    /// plus those already held when the append had to reallocate (to grow,
    /// or because the storage was shared: copy-on-write).
    mutating func appendCountingCopies<Bytes: Sequence>(contentsOf bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        let before = storageIdentity
        let held = count
        append(contentsOf: bytes)
        let appended = count - held
        return storageIdentity == before || held == 0 ? appended : held + appended
    }

    /// ``appendCountingCopies(contentsOf:)`` of one byte.
    mutating func appendCountingCopies(_ byte: UInt8) -> Int {
        let before = storageIdentity
        let held = count
        append(byte)
        return storageIdentity == before || held == 0 ? 1 : held + 1
    }
}

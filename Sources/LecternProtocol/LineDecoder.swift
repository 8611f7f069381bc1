// LineDecoder.swift: incremental splitting of a byte stream into request lines.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a stream of bytes into lines, incrementally and with a limit.
///
/// Feed it whatever the socket delivered with ``append(_:)``, then call
/// ``next()`` until it returns `nil` ("need more bytes"). A line ends at LF
/// (0x0A); one CR (0x0D) directly before that LF is removed too, so LF and
/// CRLF clients are treated alike. A CR anywhere else is an ordinary byte of
/// the line: a lone CR is not a line end, because netcat sends none and
/// treating it as one would split CRLF pairs that arrive in two reads.
///
/// Bytes are not interpreted: UTF-8 validation belongs to the request parser.
/// The decoder remembers how far it has scanned for LF, so a long line that
/// arrives in many small reads is scanned once, not once per read; consumed
/// bytes are dropped only once they are at least as many as those kept, so
/// each byte is moved a bounded number of times (``work`` counts both).
/// The buffer gives back its memory once a large request is consumed: it
/// keeps at most ``retainedCapacity`` bytes of capacity when idle.
///
/// ```swift
/// var decoder = LineDecoder(maximumLineLength: 1 << 20)
/// decoder.append(bytes)
/// while let line = try decoder.next() { handle(line) }
/// ```
///
/// - Complexity: amortised O(n) in the bytes appended.
public struct LineDecoder: Sendable {
    /// The longest line accepted, in bytes, not counting the line ending.
    /// It may change between lines (a connection's limit grows after AUTH);
    /// it applies from the next call to ``next()``.
    public var maximumLineLength: Int {
        didSet { precondition(maximumLineLength > 0, "maximumLineLength must be positive") }
    }

    /// The capacity the buffer keeps once what it holds is consumed (so a
    /// connection that sent one large request does not hold its size).
    public static let retainedCapacity = 64 * 1024

    /// Bytes scanned for line ends and copied into or within the buffer.
    public private(set) var work = DecodingWork()

    private var buffer: [UInt8] = []
    /// Start of the first byte not yet returned as part of a line.
    private var readIndex = 0
    /// Bytes in `buffer[readIndex..<scanIndex]` are known not to be LF.
    private var scanIndex = 0

    public init(maximumLineLength: Int) {
        precondition(maximumLineLength > 0, "maximumLineLength must be positive")
        self.maximumLineLength = maximumLineLength
    }

    /// Thrown when a line grows past ``maximumLineLength`` before its LF.
    public struct LineTooLong: Error, Equatable, Sendable {
        public let limit: Int
    }

    /// Bytes received but not yet returned as a line.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends bytes received from the peer.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        compact()
        work.bytesCopied += buffer.appendCountingCopies(contentsOf: bytes)
    }

    /// Appends bytes received from the peer (the socket's read buffer; a
    /// concrete overload, so the hot path needs no generic dispatch).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        guard let base = bytes.baseAddress else { return }
        // Typed, so that the append is one copy.
        work.bytesCopied += buffer.appendCountingCopies(
            contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// Runs `body` on the bytes received but not yet returned, without consuming them.
    public func withBufferedBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[readIndex...])) }
    }

    /// The buffered byte `offset` bytes past the read position, if it has arrived.
    public func peekByte(at offset: Int) -> UInt8? {
        readIndex + offset < buffer.count ? buffer[readIndex + offset] : nil
    }

    /// Drops one CRLF or LF if the buffer starts with one (the optional line
    /// end after a literal's bytes). Returns false when it cannot tell yet:
    /// nothing is buffered, or only a CR that may be half of a CRLF.
    public mutating func skipOptionalLineEnding() -> Bool {
        guard let first = peekByte(at: 0) else { return false }
        if first == 0x0D {
            guard let second = peekByte(at: 1) else { return false }
            if second == 0x0A { _ = nextBytes(count: 2) }
        } else if first == 0x0A {
            _ = nextBytes(count: 1)
        }
        return true
    }

    /// Takes up to `count` raw bytes (not split at LF) from the buffer, for
    /// payloads whose length is announced in advance. Returns `nil` until all
    /// `count` bytes have arrived.
    public mutating func nextBytes(count: Int) -> ArraySlice<UInt8>? {
        guard buffer.count - readIndex >= count else { return nil }
        let bytes = buffer[readIndex..<readIndex + count]
        readIndex += count
        scanIndex = readIndex
        return bytes
    }

    /// The next complete line without its line ending, or `nil` if more bytes
    /// are needed.
    ///
    /// - Throws: ``LineTooLong`` when the buffered, unterminated line is
    ///   longer than the limit. The decoder is then unusable for this stream:
    ///   a peer that sends such lines has lost sync and should be closed.
    public mutating func next() throws -> ArraySlice<UInt8>? {
        if scanIndex < buffer.count {
            let start = scanIndex
            let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
                guard let base = bytes.baseAddress,
                    let hit = memchr(base + start, 0x0A, bytes.count - start)
                else { return nil }
                return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            }
            if let lineFeed = found {
                var end = lineFeed
                if end > readIndex && buffer[end - 1] == 0x0D { end -= 1 }
                guard end - readIndex <= maximumLineLength else {
                    throw LineTooLong(limit: maximumLineLength)
                }
                let line = buffer[readIndex..<end]
                work.bytesScanned += lineFeed + 1 - start
                scanIndex = lineFeed + 1
                readIndex = scanIndex
                return line
            }
            work.bytesScanned += buffer.count - start
            scanIndex = buffer.count
        }
        // One byte of slack: the last byte may be the CR of a CRLF.
        if buffer.count - readIndex > maximumLineLength + 1 {
            throw LineTooLong(limit: maximumLineLength)
        }
        return nil
    }

    /// Drops consumed bytes, once they are all of the buffer or at least
    /// half of it (so each byte is moved at most once per doubling), and
    /// gives back capacity beyond ``retainedCapacity`` that the bytes kept
    /// do not need. Called before new bytes are appended, and by the
    /// request decoder when it needs more bytes; never while a line just
    /// returned may still share the storage (that would copy it).
    ///
    /// - Complexity: O(bytes kept), and only when at least as many bytes
    ///   were consumed since the last move.
    public mutating func compact() {
        let kept = buffer.count - readIndex
        if kept == 0 {
            if readIndex > 0 || buffer.capacity > Self.retainedCapacity {
                buffer.removeAll(keepingCapacity: buffer.capacity <= Self.retainedCapacity)
            }
            readIndex = 0
            scanIndex = 0
        } else if readIndex > 4096 && readIndex >= kept {
            if buffer.capacity > Self.retainedCapacity && kept * 4 < buffer.capacity {
                // A large request is done: keep what follows it in storage of its size.
                buffer = Array(buffer[readIndex...])
            } else {
                buffer.removeSubrange(0..<readIndex)
            }
            work.bytesCopied += kept
            scanIndex -= readIndex
            readIndex = 0
        }
    }

    /// The buffer's capacity in bytes (what it holds in memory).
    public var capacity: Int { buffer.capacity }
}

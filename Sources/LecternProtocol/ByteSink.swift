// ByteSink.swift: where replies and numbers are written: a byte array, or a
// short line built on the stack.

/// Something bytes are appended to: a connection's output (`[UInt8]`), or a
/// ``ShortLine`` on the stack. ``ReplyWriter`` and ``WireNumber`` write
/// through it, so a number is spelled by one piece of code wherever it goes.
public protocol ByteSink {
    mutating func write(byte: UInt8)
    /// Appends `bytes` in one copy.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends the decimal digits of `magnitude` (``WireNumber`` calls
    /// this; a sink with room of its own writes them in place).
    mutating func write(digitsOf magnitude: UInt)
}

extension ByteSink {
    /// The digits written from the right into a buffer that lives for
    /// this call, then copied in once.
    @inlinable
    public mutating func write(digitsOf magnitude: UInt) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            guard let base = digits.baseAddress else { return }
            let count = WireNumber.digitCount(magnitude)
            WireNumber.fill(base, count: count, withDigitsOf: magnitude)
            write(UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Appends the bytes of `literal`.
    @inlinable
    public mutating func write(_ literal: StaticString) {
        // A StaticString literal is always UTF-8 (`write("TAP hit ")`), so
        // utf8Start is valid for utf8CodeUnitCount bytes, for the program's life.
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 bytes of `text`.
    @inlinable
    public mutating func write(text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Appends `value` in decimal (see ``WireNumber/write(_:to:)-(Int,_)``).
    @inlinable
    public mutating func write(decimal value: Int) { WireNumber.write(value, to: &self) }

    /// Appends `value` as the wire writes points (see ``WireNumber/write(_:to:)-(Double,_)``).
    @inlinable
    public mutating func write(number value: Double) { WireNumber.write(value, to: &self) }

    /// CR LF: the end of every line of the protocol, and of every RESP element.
    @inlinable
    public mutating func writeLineEnd() {
        write(byte: 0x0D)
        write(byte: 0x0A)
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    public mutating func write(byte: UInt8) { append(byte) }

    @inlinable
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// A short line (a reply's status line) built on the stack and then
/// appended to an output in one copy: such a line is a dozen small pieces,
/// and appending each to an Array costs a uniqueness and a capacity check
/// and a call.
///
/// Its memory is a temporary allocation that lives for the call of
/// ``append(to:_:)`` only, and the line cannot escape that call (it is
/// handed to the body `inout`, and its initialiser is private), so it never
/// points to memory that is gone. Writing past ``capacity`` traps.
public struct ShortLine: ByteSink {
    /// Room for the longest line written this way (TAP's status line with
    /// every number at its longest is about 120 bytes).
    public static let capacity = 256
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline var length = 0
    /// Bytes written so far.
    public var count: Int { length }

    /// Runs `body` on an empty line, then appends what it wrote to `output`.
    @inlinable
    public static func append(to output: inout [UInt8], _ body: (inout ShortLine) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return }
            var line = ShortLine(base: base)
            body(&line)
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: line.length))
        }
    }

    @usableFromInline init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    @inlinable
    mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(n <= Self.capacity - length, "a short line is at most \(Self.capacity) bytes")
        defer { length &+= n }
        return base + length
    }

    @inlinable
    public mutating func write(byte: UInt8) { reserve(1).pointee = byte }

    @inlinable
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count).update(from: source, count: bytes.count)
    }

    /// In place: the digits are counted, then written from the right.
    @inlinable
    public mutating func write(digitsOf magnitude: UInt) {
        let count = WireNumber.digitCount(magnitude)
        WireNumber.fill(reserve(count), count: count, withDigitsOf: magnitude)
    }
}

@available(*, unavailable)
extension ShortLine: Sendable {}

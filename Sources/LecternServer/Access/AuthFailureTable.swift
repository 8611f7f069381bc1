// AuthFailureTable.swift: failed AUTH attempts per client address, with a
// delay that doubles, in a table of bounded size.

import Glibc

/// Failed AUTH attempts counted per client address, across connections:
/// the per-connection limit alone lets a client that reconnects guess
/// thousands of tokens a second.
///
/// After ``freeFailures`` failures from one address, every further AUTH
/// from it, on any connection and whatever the token, is refused unchecked
/// until a delay has passed: ``firstDelay`` after the tenth failure,
/// doubling with each failure after it, at most ``maximumDelay``. Attempts
/// refused unchecked do not count, so a person retrying when the refusal
/// says is never locked out for longer than ``maximumDelay``. A success
/// forgets the address; so does ``memory`` without a failure.
///
/// What counts as one address (``address(ofPeer:)``): an IPv4 address; an
/// IPv6 /64 (one host usually holds a whole /64, so counting single IPv6
/// addresses would count nothing); all Unix-socket connections together
/// (only the daemon's own user can open them).
///
/// Bounded: at most ``capacity`` addresses are remembered; past that, the
/// one whose last failure is oldest is forgotten first. A client with more
/// addresses than that gains nothing it did not already have: each of its
/// addresses gets its free failures anyway.
///
/// Times are the loop's milliseconds (`uv_now`), passed in.
///
/// - Complexity: O(1) amortized per check and per failure (a failure
///   appends to an order queue that is compacted, in O(``capacity``), when
///   it holds twice as many items as there are addresses plus ``capacity``).
struct AuthFailureTable {
    /// Failures from one address before its attempts are delayed: as many
    /// as one connection may make before it is closed, so a client that
    /// reconnects gets no more than one connection's allowance.
    static let freeFailures = AccessControl.maximumAttempts
    /// The delay after the ``freeFailures``-th failure, in milliseconds;
    /// each further failure doubles it.
    static let firstDelay: UInt64 = 1000
    /// The longest delay, in milliseconds.
    static let maximumDelay: UInt64 = 60_000
    /// An address with no failure for this long (ms) is forgotten.
    static let memory: UInt64 = 15 * 60_000
    /// Addresses remembered at most.
    static let capacity = 4096

    private struct Entry {
        var failures: Int
        var lastFailure: UInt64
        /// Attempts are refused until this loop time; 0: not delayed.
        var delayedUntil: UInt64
        /// Which item of ``order`` is this entry's (older ones are stale).
        var sequence: UInt64
    }

    private var entries: [String: Entry] = [:]
    /// Addresses by last failure, oldest first, from ``head`` on; an item
    /// whose sequence is not its entry's is stale and skipped.
    private var order: [(address: String, sequence: UInt64)] = []
    private var head = 0
    private var nextSequence: UInt64 = 0

    /// Addresses remembered now.
    var count: Int { entries.count }

    /// Milliseconds until `address` may try again, or nil if it may now.
    mutating func remainingDelay(for address: String, now: UInt64) -> UInt64? {
        guard let entry = entries[address] else { return nil }
        if now &- entry.lastFailure >= Self.memory {
            entries[address] = nil
            return nil
        }
        return now < entry.delayedUntil ? entry.delayedUntil - now : nil
    }

    /// Failures counted for `address` (0 if none are remembered).
    func failures(of address: String) -> Int { entries[address]?.failures ?? 0 }

    /// Counts a failed attempt from `address`.
    ///
    /// - Returns: the delay (ms) this failure imposes, or nil while the
    ///   address is still within its free failures.
    @discardableResult
    mutating func recordFailure(of address: String, now: UInt64) -> UInt64? {
        forgetExpired(now: now)
        var entry = entries[address] ?? Entry(failures: 0, lastFailure: now, delayedUntil: 0, sequence: 0)
        if entries[address] == nil && entries.count >= Self.capacity { evictOldest() }
        entry.failures += 1
        entry.lastFailure = now
        entry.sequence = nextSequence
        nextSequence &+= 1
        var delay: UInt64?
        if entry.failures >= Self.freeFailures {
            let doublings = UInt64(min(entry.failures - Self.freeFailures, 16))
            delay = min(Self.maximumDelay, Self.firstDelay << doublings)
            entry.delayedUntil = now + (delay ?? 0)
        }
        entries[address] = entry
        order.append((address, entry.sequence))
        compactIfNeeded()
        return delay
    }

    /// A successful AUTH from `address`: its failures are forgotten.
    mutating func recordSuccess(of address: String) {
        entries[address] = nil
    }

    /// Forgets addresses at the front of the order whose last failure is
    /// older than ``memory`` (each is looked at once, so O(1) amortized).
    private mutating func forgetExpired(now: UInt64) {
        while head < order.count {
            let item = order[head]
            guard let entry = entries[item.address], entry.sequence == item.sequence else {
                head += 1  // stale
                continue
            }
            guard now &- entry.lastFailure >= Self.memory else { return }
            entries[item.address] = nil
            head += 1
        }
    }

    private mutating func evictOldest() {
        while head < order.count {
            let item = order[head]
            head += 1
            if let entry = entries[item.address], entry.sequence == item.sequence {
                entries[item.address] = nil
                return
            }
        }
    }

    /// Drops consumed and stale items once they outnumber the live ones,
    /// keeping the queue within 2 × (entries + capacity) items.
    private mutating func compactIfNeeded() {
        guard order.count > 2 * (entries.count + Self.capacity) else { return }
        order = order[head...].filter { entries[$0.address]?.sequence == $0.sequence }
        head = 0
    }

    /// The address a connection's failures are counted under, from
    /// ``Connection/peer``: `192.0.2.7` for `192.0.2.7:51234`; the /64 of
    /// an IPv6 peer (`2001:db8:1:2::/64`), or the IPv4 address inside an
    /// IPv4-mapped one; `unix` for every Unix-socket connection.
    static func address(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") {
            let host = String(peer[peer.index(after: peer.startIndex)..<close])
            var bytes = [UInt8](repeating: 0, count: 16)
            guard inet_pton(AF_INET6, host, &bytes) == 1 else { return host }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            return groups.joined(separator: ":") + "::/64"
        }
        if let colon = peer.lastIndex(of: ":") { return String(peer[..<colon]) }
        return peer
    }

    /// How a refusal names the address: `127.0.0.1`, or `the Unix socket`.
    static func describe(_ address: String) -> String {
        address == "unix" ? "the Unix socket" : address
    }
}

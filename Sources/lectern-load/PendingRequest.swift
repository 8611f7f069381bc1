// PendingRequest.swift: a request sent and not yet answered.

/// A request on the wire, waiting for its reply. Replies come in request
/// order, so each connection keeps these in a FIFO (``RequestQueue``).
struct PendingRequest {
    enum Purpose {
        /// Prepares the connection before the load (PUT, VIEW, LINES…).
        case setup
        /// Measured load: its latency and errors count in the results.
        case load
        /// Sent by a scenario for its own measurement (TYPE); not a load sample.
        case control
    }

    /// When the request should have been sent (open loop: its slot in the
    /// schedule); latency counts from here, so a late send is not hidden.
    let intendedAt: UInt64
    let purpose: Purpose
    let expectation: ReplyExpectation
    /// Scenario-defined detail (the mix's request kind, a fan-out tap number).
    let detail: Int
    /// Called with a well-formed reply (setup requests read their replies).
    let onReply: ((Reply) -> Void)?
}

/// A first-in, first-out queue of pending requests.
///
/// - Complexity: amortised O(1) per operation.
struct RequestQueue {
    private var items: [PendingRequest] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }
    var first: PendingRequest? { isEmpty ? nil : items[head] }

    mutating func append(_ item: PendingRequest) { items.append(item) }

    mutating func popFirst() -> PendingRequest? {
        guard !isEmpty else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// How many of the queued requests have `purpose`.
    func count(of purpose: PendingRequest.Purpose) -> Int {
        items[head...].reduce(0) { $0 + ($1.purpose == purpose ? 1 : 0) }
    }
}

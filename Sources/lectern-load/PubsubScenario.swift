// PubsubScenario.swift: Redis PUBLISH to many subscribers, time to the last one.

import LecternProtocol

/// Fan-out's baseline, measured the same way on Redis itself: the
/// `--watchers` connections after the first SUBSCRIBE one channel (named
/// after this process), and connection 0 PUBLISHes to it on the schedule
/// of `--rate`. For each PUBLISH the scenario measures the time from its
/// (scheduled) send to the moment the last subscriber has the message, as
/// ``FanoutScenario`` does for a TAP and its watchers' `! TAP` events; the
/// report has the same histogram and figures.
///
/// Each payload is `--message-bytes` long (default 200, about a `! TAP`
/// event line) and starts with `seq=` and the publish's number in 12
/// digits, so a subscriber's n-th message must say n: a lost, repeated or
/// reordered message is counted malformed. Every PUBLISH reply (`:N`, the
/// subscribers that got it) must name every subscriber.
///
/// Speaks RESP (``ReplyFramer/Framing/resp``): SUBSCRIBE as an inline
/// command, PUBLISH as an array of bulk strings (the payload is bytes).
final class PubsubScenario: LoadScenario {
    let connectionCount: Int
    var framing: ReplyFramer.Framing { .resp }
    private let channel = "lectern-load-pubsub-\(ProcessIdentity.current)"
    /// The PUBLISH command with its payload, whose 12 digits are rewritten per publish.
    private var publish: [UInt8]
    private let digitsOffset: Int
    private let messageBytes: Int
    private let publishReply = ReplyExpectation(data: [], final: ":")
    /// Per PUBLISH sent: its scheduled time and how many subscribers still lack its message.
    private var publishTimes: [UInt64] = []
    private var waiting: [Int] = []
    /// Per connection: the number of the next message it should get.
    private var nextMessage: [Int]
    private var subscribersReady = 0
    private var histogram = LatencyHistogram()
    private var messagesDelivered = 0
    /// PUBLISHes some subscriber has not yet had the message of.
    private var incompletePublishes = 0

    /// The payload sizes `--message-bytes` accepts: room for `seq=` and its digits, at most 64 KiB.
    static let payloadBytes = 24...65_536
    private static let sequencePrefix = Array("seq=".utf8)
    private static let sequenceDigits = 12

    /// One thread only (``LoadOptions`` refuses `--threads` above 1): the
    /// publisher and its subscribers must share a loop.
    init(options: LoadOptions, share: LoadShare) {
        precondition(share.threads == 1, "pubsub runs on one thread")
        connectionCount = options.watchers + 1
        messageBytes = options.messageBytes
        nextMessage = Array(repeating: 0, count: options.watchers + 1)
        var command = Array("*3\r\n$7\r\nPUBLISH\r\n$\(channel.utf8.count)\r\n\(channel)\r\n$\(messageBytes)\r\n".utf8)
        digitsOffset = command.count + Self.sequencePrefix.count
        var payload = Self.sequencePrefix + Array(repeating: UInt8(ascii: "0"), count: Self.sequenceDigits) + [UInt8(ascii: " ")]
        payload += Array(repeating: UInt8(ascii: "x"), count: messageBytes - payload.count)
        command += payload + Array("\r\n".utf8)
        publish = command
    }

    func setupRequests(for index: Int) -> [ScenarioRequest] {
        guard index > 0 else { return [] }
        var subscribe = ScenarioRequest(
            bytes: ArraySlice("SUBSCRIBE \(channel)\r\n".utf8),
            expectation: ReplyExpectation(data: ["subscribe", channel, ":"], final: "*3"))
        subscribe.onReply = { [unowned self] _ in subscribersReady += 1 }
        return [subscribe]
    }

    func generatesLoad(_ index: Int) -> Bool { index == 0 }

    func nextRequest(for index: Int, intendedAt: UInt64) -> ScenarioRequest {
        var number = publishTimes.count
        publishTimes.append(intendedAt)
        waiting.append(subscribersReady)
        if subscribersReady > 0 { incompletePublishes += 1 }
        for position in (0..<Self.sequenceDigits).reversed() {
            publish[digitsOffset + position] = UInt8(ascii: "0") + UInt8(number % 10)
            number /= 10
        }
        return ScenarioRequest(bytes: publish[...], expectation: publishReply)
    }

    /// A PUBLISH reply must count every subscriber.
    func didComplete(_ request: PendingRequest, reply: ReplyView, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        let receivers = WireNumber.wholeNumber(reply.finalLine.dropFirst())
        if receivers != subscribersReady {
            runner.countMalformed("PUBLISH reached \(receivers.map(String.init) ?? "?") subscribers of \(subscribersReady)")
        }
    }

    func didReceive(event payload: UnsafeRawBufferPointer, on connection: ClientConnection, at now: UInt64, runner: LoadRunner) {
        guard let number = sequenceNumber(payload), number < waiting.count else {
            runner.countMalformed("subscriber message '\(String(decoding: payload.prefix(60), as: UTF8.self))'")
            return
        }
        let expected = nextMessage[connection.index]
        guard number >= expected else {
            runner.countMalformed("message \(number) again, or out of order, after \(expected - 1)")
            return
        }
        if number > expected { runner.countMalformed("messages \(expected) to \(number - 1) did not come") }
        nextMessage[connection.index] = number + 1
        waiting[number] -= 1
        let scheduled = publishTimes[number]
        let measured = scheduled >= runner.measureStart && scheduled < runner.measureEnd
        if measured { messagesDelivered += 1 }
        if waiting[number] == 0 {
            incompletePublishes -= 1
            if measured { histogram.record(now - scheduled) }
        }
    }

    /// The publish number a payload carries, if it is one of ours.
    private func sequenceNumber(_ payload: UnsafeRawBufferPointer) -> Int? {
        let digitsStart = Self.sequencePrefix.count
        guard payload.count == messageBytes, payload.starts(with: Self.sequencePrefix) else { return nil }
        return WireNumber.wholeNumber(payload[digitsStart..<digitsStart + Self.sequenceDigits])
    }

    func isAwaitingEvents(runner: LoadRunner) -> Bool { incompletePublishes > 0 }

    func finish(runner: LoadRunner) -> ScenarioMetrics? {
        let measured = publishTimes.filter { $0 >= runner.measureStart && $0 < runner.measureEnd }.count
        let expectedMessages = measured * subscribersReady
        return ScenarioMetrics(
            histograms: [("PUBLISH send to the last subscriber's message", histogram)],
            figures: [
                ("subscribers", .count(Double(subscribersReady))),
                ("message bytes", .count(Double(messageBytes))),
                ("publishes measured", .count(Double(measured))),
                ("publishes reaching every subscriber", .count(Double(histogram.count))),
                ("messages delivered share", .share(part: Double(messagesDelivered), whole: Double(expectedMessages))),
            ])
    }
}

// LecternRequests.swift: the lecternd requests the scenarios send, with the replies they expect.

import LecternProtocol

/// Request lines of the Lectern protocol (PROTOCOL.md), encoded once, each
/// paired with the shape of its well-formed reply.
enum LecternRequests {
    static func hello() -> ScenarioRequest {
        request("HELLO 1 name=lectern-load", ReplyExpectation(final: "OK HELLO "))
    }

    /// PUT with a literal payload: exact bytes, no escaping.
    static func put(_ id: String, _ text: String) -> ScenarioRequest {
        let bytes = Array(text.utf8)
        return ScenarioRequest(
            bytes: ArraySlice(Array("PUT \(id) lang=en {\(bytes.count)}\n".utf8) + bytes + [0x0A]),
            expectation: ReplyExpectation(final: "OK PUT id=\(id) "))
    }

    static func view(_ id: String, width: Double) -> ScenarioRequest {
        request("VIEW \(id) width=\(WireNumber.text(width)) size=17 font=\"DejaVu Sans\"", ReplyExpectation(final: "OK VIEW id=\(id) "))
    }

    static func lines(_ id: String) -> ScenarioRequest {
        request("LINES \(id)", ReplyExpectation(anyDataFinal: ["OK LINES "]))
    }

    static func tap(_ id: String, _ point: TapTargets.Point) -> ScenarioRequest {
        request("TAP \(id) \(point.wire)", tapHit)
    }

    /// TAPs of one document at each point, their bytes back to back in one buffer.
    static func taps(_ id: String, _ points: [TapTargets.Point]) -> [ScenarioRequest] {
        encodedTogether(points.map { "TAP \(id) \($0.wire)" }, tapHit)
    }

    /// SELECTs of one document at each point, their bytes back to back in one buffer.
    static func selects(_ id: String, _ points: [TapTargets.Point]) -> [ScenarioRequest] {
        encodedTogether(points.map { "SELECT \(id) \($0.wire)" }, selectToggled)
    }

    /// `expecting`: an expectation shared by many such requests, if the
    /// caller keeps one (it must be ``rectsReply(sentence:)``).
    static func rects(_ id: String, sentence: Int, expecting reply: ReplyExpectation? = nil) -> ScenarioRequest {
        request("RECTS \(id) \(sentence)", reply ?? rectsReply(sentence: sentence))
    }

    static func rectsReply(sentence: Int) -> ReplyExpectation {
        ReplyExpectation(data: ReplyExpectation.highlightLines, final: "OK RECTS sentence=\(sentence)")
    }

    /// `expecting`: a shared ``caretReply(offset:)``, if the caller keeps one.
    static func caret(_ id: String, offset: Int, expecting reply: ReplyExpectation? = nil) -> ScenarioRequest {
        request("CARET \(id) \(offset)", reply ?? caretReply(offset: offset))
    }

    static func caretReply(offset: Int) -> ReplyExpectation {
        ReplyExpectation(final: "OK CARET offset=\(offset) ")
    }

    /// `expecting`: a shared ``sentencesReply(count:)``, if the caller keeps one.
    static func sentences(_ id: String, count: Int, expecting reply: ReplyExpectation? = nil) -> ScenarioRequest {
        request("SENTENCES \(id) 0 \(count)", reply ?? sentencesReply(count: count))
    }

    static func sentencesReply(count: Int) -> ReplyExpectation {
        ReplyExpectation(data: Array(repeating: "* sentence ", count: count), final: "OK SENTENCES \(count) of ")
    }

    static func ping() -> ScenarioRequest {
        ScenarioRequest(bytes: pingBytes, expectation: pong)
    }

    static func watch(_ id: String) -> ScenarioRequest {
        request("WATCH \(id)", ReplyExpectation(final: "OK WATCH id=\(id) "))
    }

    static func type(_ id: String, intervalMilliseconds: Int) -> ScenarioRequest {
        request("TYPE \(id) interval=\(intervalMilliseconds)", ReplyExpectation(final: "OK TYPE stream="))
    }

    private static func request(_ line: String, _ expectation: ReplyExpectation) -> ScenarioRequest {
        ScenarioRequest(bytes: ArraySlice((line + "\n").utf8), expectation: expectation)
    }

    private static func encodedTogether(_ lines: [String], _ expectation: ReplyExpectation) -> [ScenarioRequest] {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for line in lines {
            let start = bytes.count
            bytes += line.utf8
            bytes.append(0x0A)
            ranges.append(start..<bytes.count)
        }
        return ranges.map { ScenarioRequest(bytes: bytes[$0], expectation: expectation) }
    }

    // Expectations of the requests sent over and over, shared by all of them.
    private static let tapHit = ReplyExpectation(data: ReplyExpectation.highlightLines, final: "OK TAP hit ")
    private static let selectToggled = ReplyExpectation(
        data: ReplyExpectation.highlightLines, final: "OK SELECT added ", "OK SELECT removed ")
    private static let pong = ReplyExpectation(final: "OK PONG")
    private static let pingBytes = ArraySlice("PING\n".utf8)

    /// A document id unique to this process and connection.
    static func documentID(_ scenario: String, _ index: Int) -> String {
        "load-\(scenario)-\(ProcessIdentity.current)-\(index)"
    }
}

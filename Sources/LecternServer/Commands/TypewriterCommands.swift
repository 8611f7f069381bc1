// TypewriterCommands.swift: TYPE, PAUSE, RESUME, SEEK, SPEED, STOP.

import LecternProtocol
import LecternText

extension Server {
    /// Commands for typewriter reveal streams.
    static let typewriterCommands: [Command] = [
        Command(
            name: "TYPE",
            syntax: "<id>",
            options: [
                TypewriterOptions.interval, TypewriterOptions.cps, TypewriterOptions.from,
                TypewriterOptions.sentencePause, TypewriterOptions.commaPause, TypewriterOptions.follow,
            ],
            summary: "Streams a typewriter reveal of a document as ! TICK events, one grapheme at a time.",
            details: [
                "TYPE intro interval=50 follow=yes -> OK TYPE stream=1 id=intro from=0 total=47 graphemes=47 interval=50",
                "then ! TICK intro stream=1 end=1 graphemes=1 total=47 sentence=0 caret=… every 50 ms, and ! DONE at the end",
                "a stream the daemon fell behind on skips ahead: one ! TICK … skipped=<graphemes> instead of each it missed",
            ],
            handler: { context in
                let server = context.server
                let connection = context.connection
                let request = context.request
                let document = try context.document()
                guard server.readers.streamCount(of: connection) < TypewriterScheduler.maximumStreamsPerConnection else {
                    throw ProtocolError(.tooMany, "a connection runs at most \(TypewriterScheduler.maximumStreamsPerConnection) streams; STOP one first")
                }
                let interval = try TypewriterOptions.pace(request, interval: TypewriterOptions.interval)
                let sentencePause = try TypewriterOptions.sentencePause.read(request)
                let commaPause = try TypewriterOptions.commaPause.read(request)
                let follow = try TypewriterOptions.follow.read(request)
                let unit = connection.session.unit
                var position = 0
                if let from = try TypewriterOptions.from.read(request) {
                    let offset = try document.utf16Offset(fromWire: from, unit: unit, name: "from")
                    position = (try? document.text.indexMap.offset(ofUTF16: offset, in: .grapheme)) ?? 0
                }
                let stream = server.typewriters.start(
                    connection: connection, document: document, interval: interval,
                    sentencePause: sentencePause, commaPause: commaPause, follow: follow, from: position)
                return .reply(Reply(
                    "TYPE stream=\(stream.id) id=\(document.id) from=\(document.wireOffset(stream.revealedEnd, unit: unit))"
                        + " total=\(document.text.indexMap.length(in: unit)) graphemes=\(stream.total) interval=\(Wire.number(interval))"))
            }),
        streamCommand("PAUSE", summary: "Pauses a typewriter stream where it is.") { $0.pause($1) },
        streamCommand("RESUME", summary: "Resumes a paused typewriter stream.") { $0.resume($1) },
        Command(
            name: "SEEK", syntax: "<stream> <offset>",
            summary: "Moves a typewriter stream's revealed prefix to an offset.",
            details: ["SEEK <s> 30 (s: the stream= of your TYPE reply) -> OK SEEK stream=<s> end=30 graphemes=30, then ! TICK … end=30"],
            handler: { context in
                let stream = try context.stream()
                let document = stream.document
                let unit = context.unit
                let offset = try document.utf16Offset(fromWire: context.arguments[1], unit: unit, name: "offset")
                let position = (try? document.text.indexMap.offset(ofUTF16: offset, in: .grapheme)) ?? 0
                let reply = Reply("SEEK stream=\(stream.id) end=\(document.wireOffset(offset, unit: unit)) graphemes=\(position)")
                // The reply first, then the tick for the new position.
                context.connection.reply(reply, tag: context.request.tag)
                context.server.typewriters.seek(stream, to: position)
                return .sent
            }),
        Command(
            name: "SPEED", syntax: "<stream>", options: [TypewriterOptions.newInterval, TypewriterOptions.cps],
            summary: "Changes a typewriter stream's pace from the next tick on.",
            details: ["SPEED <s> cps=40 (s: the stream= of your TYPE reply) -> OK SPEED stream=<s> interval=25"],
            handler: { context in
                let stream = try context.stream()
                let interval = try TypewriterOptions.pace(context.request, interval: TypewriterOptions.newInterval)
                context.server.typewriters.setInterval(stream, interval)
                return .reply(Reply("SPEED stream=\(stream.id) interval=\(Wire.number(interval))"))
            }),
        streamCommand("STOP", summary: "Ends a typewriter stream (no ! DONE).") { $0.stop($1) },
    ]

    /// PAUSE, RESUME or STOP: `action` on a stream of this connection, then
    /// where the stream stands (`OK <name> stream=… end=… graphemes=…`).
    private static func streamCommand(
        _ name: String, summary: String, _ action: @escaping (TypewriterScheduler, TypewriterStream) -> Void
    ) -> Command {
        Command(
            name: name, syntax: "<stream>", summary: summary,
            details: ["\(name) <s> (s: the stream= of your TYPE reply) -> OK \(name) stream=<s> end=12 graphemes=12"],
            handler: { context in
                let stream = try context.stream()
                action(context.server.typewriters, stream)
                return .reply(Reply("\(name) " + stream.positionFacts))
            })
    }
}

extension CommandContext {
    /// The stream named by the first argument, on this connection (`ERR NOSTREAM`).
    func stream() throws -> TypewriterStream {
        let id = try Wire.integer(arguments[0], "stream")
        guard let stream = server.readers.stream(id, of: connection) else {
            throw ProtocolError(.noStream, "no stream \(id) on this connection (TYPE starts one)")
        }
        return stream
    }
}

extension TypewriterStream {
    /// `stream=… end=… graphemes=…` in the connection's unit.
    var positionFacts: String {
        "stream=\(id) end=\(document.wireOffset(revealedEnd, unit: connection.session.unit)) graphemes=\(position)"
    }
}

// ReplyBuilder.swift: replies that grow with a document, encoded as they are
// built, on the thread pool when they are large, and sent in request order.

import LecternProtocol

/// A reply encoded straight into bytes for one request's framing by its
/// ``ReplyWriter``, the same bytes as ``Connection/reply(_:tag:)`` of the
/// equivalent ``Reply``: the data lines as they are made, and on
/// ``finish(status:)`` whatever the framing puts before them (RESP's array
/// header) and the status.
///
/// A value: build it on any thread, from values captured up front.
struct ReplyBuilder: Sendable {
    let writer: ReplyWriter
    let tag: String?
    private var body: [UInt8] = []
    private var dataLines = 0

    init(writer: ReplyWriter, tag: String?) {
        self.writer = writer
        self.tag = tag
    }

    /// Bytes of data lines so far (the status line not counted).
    var count: Int { body.count }

    /// A data line (no CR or LF in `text`).
    mutating func data(_ text: String) {
        dataLines += 1
        writer.data(text, into: &body)
    }

    /// A literal data line of `text`'s UTF-8 bytes, copied once.
    mutating func literal(_ text: String) {
        var text = text
        dataLines += 1
        text.withUTF8 { writer.literal($0, into: &body) }
    }

    /// The whole reply, closed by `status` (the text after `OK `).
    consuming func finish(status: String) -> [UInt8] {
        var bytes: [UInt8] = []
        writer.start(dataLines: dataLines, into: &bytes)
        if bytes.isEmpty {
            bytes = body
        } else {
            bytes.reserveCapacity(bytes.count + body.count + status.utf8.count + 8)
            bytes.append(contentsOf: body)
        }
        writer.ok(status, tag: tag, into: &bytes)
        return bytes
    }
}

/// When a reply that grows with a document is built off the loop thread.
///
/// Small replies are built inline: they take microseconds, and deferring
/// them would cost more than it saves. Above either threshold the reply is
/// built on libuv's thread pool from immutable values (the text, the
/// sentence table, the layout) captured when the request is read; the
/// connection's later requests wait for it, so replies stay in request
/// order, while other connections are served meanwhile.
enum LargeReply {
    /// Text (UTF-16 units) above which a reply that grows with it (RENDER,
    /// LINES, GET, or the sentences a SENTENCES or SELECTION covers) is
    /// built on the thread pool. The same as the layout's threshold.
    static let textThreshold = LayoutService.backgroundThreshold
    /// Items (sentences, documents, selected sentences) above which a
    /// reply listing them is built on the thread pool.
    static let itemThreshold = 256

    /// `ERR TOOLARGE`: a reply of `bytes` bytes would pass the output limit.
    static func tooLarge(_ what: String, bytes: Int, limit: Int, hint: String) -> ProtocolError {
        ProtocolError(.replyTooLarge, "\(what) would be \(bytes) bytes, over the output limit of \(limit) bytes per connection (--output-hard-limit); \(hint)")
    }
}

extension CommandContext {
    /// Sends the reply `build` writes (returning its status text): inline
    /// when `offLoop` is false, else built on the thread pool and sent when
    /// it is ready, in this connection's request order.
    ///
    /// `build` must touch only what it captured, and capture only immutable
    /// values (never a ``Document`` or a ``Connection``): it runs on a pool
    /// thread while the loop goes on. A reply longer than the connection's
    /// output hard limit is not sent: the client gets `ERR TOOLARGE`, with
    /// `hint` saying how to ask for less, instead of being dropped.
    func sendBuiltReply(
        offLoop: Bool, describing what: String, hint: String,
        _ build: @escaping @Sendable (inout ReplyBuilder) throws -> String
    ) throws -> CommandOutcome {
        let make = replyMaker(describing: what, hint: hint, build)
        guard offLoop else {
            connection.reply(encoded: try make().get())
            return .sent
        }
        let connection = self.connection
        let tag = request.tag
        server.statistics.backgroundReplies += 1
        connection.deferReply()
        BackgroundWork.run(on: server.loop, make, then: { result in
            connection.completeDeferredReply(encoded: result, tag: tag)
        })
        return .deferred
    }

    /// The work of ``sendBuiltReply(offLoop:describing:hint:_:)``: builds
    /// and encodes the reply for this request's framing, or the error.
    /// Runs on any thread.
    func replyMaker(
        describing what: String, hint: String, _ build: @escaping @Sendable (inout ReplyBuilder) throws -> String
    ) -> @Sendable () -> Result<[UInt8], ProtocolError> {
        let builder = ReplyBuilder(writer: connection.replyWriter, tag: request.tag)
        let limit = server.configuration.outputHardLimit
        return { @Sendable () -> Result<[UInt8], ProtocolError> in
            var builder = builder
            do {
                let status = try build(&builder)
                let bytes = builder.finish(status: status)
                guard bytes.count <= limit else {
                    return .failure(LargeReply.tooLarge(what, bytes: bytes.count, limit: limit, hint: hint))
                }
                return .success(bytes)
            } catch {
                return .failure(ProtocolError(reporting: error))
            }
        }
    }
}

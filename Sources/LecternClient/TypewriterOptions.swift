// TypewriterOptions.swift: how a typewriter reveal runs (TYPE's arguments).

/// TYPE's options; `nil` leaves the daemon's default.
public struct TypewriterOptions: Hashable, Sendable {
    /// The pace (default one grapheme per 75 ms).
    public var pace: TypewriterPace?
    /// Where the reveal starts, in the connection's unit (default 0).
    public var from: Int?
    /// Extra milliseconds after a sentence end (default 0).
    public var sentencePause: Int?
    /// Extra milliseconds after a comma (default 0).
    public var commaPause: Int?
    /// "Reading along": also send ``TypewriterEvent/sentence(number:range:rects:outline:)``
    /// on entering each sentence.
    public var follow: Bool?

    /// Options; every `nil` leaves the daemon's default.
    public init(
        pace: TypewriterPace? = nil, from: Int? = nil, sentencePause: Int? = nil, commaPause: Int? = nil,
        follow: Bool? = nil
    ) {
        self.pace = pace
        self.from = from
        self.sentencePause = sentencePause
        self.commaPause = commaPause
        self.follow = follow
    }

    var arguments: [(String, String)] {
        var arguments: [(String, String)] = []
        if let pace { arguments.append(pace.argument) }
        if let from { arguments.append(("from", String(from))) }
        if let sentencePause { arguments.append(("sentence-pause", String(sentencePause))) }
        if let commaPause { arguments.append(("comma-pause", String(commaPause))) }
        if let follow { arguments.append(("follow", follow ? "yes" : "no")) }
        return arguments
    }
}

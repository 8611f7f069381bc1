// ClusterEvent.swift: what one node tells the others about a document.

/// An event published on a document's Redis channel: by a node's TAP,
/// SELECT and CLEAR (``encoded``), or by the write script (CHANGED,
/// DELETED). Space-separated words, so that `redis-cli SUBSCRIBE` shows
/// them readably:
///
///     TAP <db> <node> <by> <revision> <sentence> <from> <to>
///     SELECT <db> <node> <by> <revision> added|removed <sentence> <from> <to>
///     CLEAR <db> <node> <by> <revision>
///     CHANGED <db> <node> <by> <revision>
///     DELETED <db> <node> <by> <revision>
///     WATCHING <db> <node> 0 0      (the node's readers watch the document)
///     UNWATCHED <db> <node> 0 0     (none of them does any more)
///
/// `<db>` is the Redis database of the writer (pub/sub is shared by all of
/// a server's databases, so nodes ignore other databases' events); `<by>`
/// the connection number on node `<node>`; `<from> <to>` the sentence's
/// content range in UTF-16 code units of that revision's text.
struct ClusterEvent: Equatable {
    enum Kind: Equatable {
        case tap(sentence: Int, range: Range<Int>)
        case select(added: Bool, sentence: Int, range: Range<Int>)
        case clear
        case changed
        case deleted
        case watching
        case unwatched
    }

    let database: Int
    let node: String
    let by: UInt64
    let revision: Int
    let kind: Kind

    /// The words after the kind that every event has: "db node by".
    static func origin(database: Int, node: String, by: UInt64) -> String { "\(database) \(node) \(by)" }

    /// The message to publish.
    var encoded: String {
        let head = "\(Self.origin(database: database, node: node, by: by)) \(revision)"
        switch kind {
        case .tap(let sentence, let range): return "TAP \(head) \(sentence) \(range.lowerBound) \(range.upperBound)"
        case .select(let added, let sentence, let range):
            return "SELECT \(head) \(added ? "added" : "removed") \(sentence) \(range.lowerBound) \(range.upperBound)"
        case .clear: return "CLEAR \(head)"
        case .changed: return "CHANGED \(head)"
        case .deleted: return "DELETED \(head)"
        case .watching: return "WATCHING \(head)"
        case .unwatched: return "UNWATCHED \(head)"
        }
    }

    /// Parses a message; nil for anything malformed (another program's
    /// message on a channel of ours is ignored, not trusted).
    init?(message: [UInt8]) {
        guard message.count <= 256 else { return nil }
        let words = message.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard words.count >= 5, let database = Int(words[1]), !words[2].isEmpty,
              let by = UInt64(words[3]), let revision = Int(words[4]), revision >= 0
        else { return nil }
        func range(_ from: String, _ to: String) -> Range<Int>? {
            guard let lower = Int(from), let upper = Int(to), lower >= 0, lower <= upper else { return nil }
            return lower..<upper
        }
        let kind: Kind
        switch (words[0], words.count) {
        case ("TAP", 8):
            guard let sentence = Int(words[5]), sentence >= 0, let range = range(words[6], words[7]) else { return nil }
            kind = .tap(sentence: sentence, range: range)
        case ("SELECT", 9):
            guard ["added", "removed"].contains(words[5]), let sentence = Int(words[6]), sentence >= 0,
                  let range = range(words[7], words[8])
            else { return nil }
            kind = .select(added: words[5] == "added", sentence: sentence, range: range)
        case ("CLEAR", 5): kind = .clear
        case ("CHANGED", 5): kind = .changed
        case ("DELETED", 5): kind = .deleted
        case ("WATCHING", 5): kind = .watching
        case ("UNWATCHED", 5): kind = .unwatched
        default: return nil
        }
        self.init(database: database, node: words[2], by: by, revision: revision, kind: kind)
    }

    init(database: Int, node: String, by: UInt64, revision: Int, kind: Kind) {
        self.database = database
        self.node = node
        self.by = by
        self.revision = revision
        self.kind = kind
    }
}

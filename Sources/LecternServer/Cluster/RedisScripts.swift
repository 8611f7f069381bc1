// RedisScripts.swift: the key layout and the one script every write runs.

/// Where a document lives in Redis (PROTOCOL.md, "Storage"). Every key of
/// one document carries the hash tag `{id}`, so under Redis Cluster they
/// would share a slot; `lectern:ids` (the id index LIST reads) is the one
/// key outside it.
enum RedisKeys {
    /// A hash: text, lang, mode, revision, updated, attachments.
    static func document(_ id: String) -> String { "lectern:{\(id)}:doc" }
    /// The document's revision counter, kept across DEL so that a document
    /// made again under the same id never reuses a revision.
    static func revision(_ id: String) -> String { "lectern:{\(id)}:revision" }
    /// A set of the nodes whose readers watch the document: a node
    /// publishes TAP, SELECT and CLEAR only while another node is in it.
    static func watching(_ id: String) -> String { "lectern:{\(id)}:watching" }
    /// The document's event channel.
    static func channel(_ id: String) -> String { "lectern:{\(id)}:events" }
    /// A sorted set of every id (score 0: ordered by bytes, for LIST).
    static let ids = "lectern:ids"
    /// The pattern of every document's channel (one PSUBSCRIBE per node).
    static let channelPattern = "lectern:{*}:events"

    /// The id in a channel name made by ``channel(_:)``.
    static func documentID(inChannel channel: [UInt8]) -> String? {
        let prefix = Array("lectern:{".utf8), suffix = Array("}:events".utf8)
        guard channel.count > prefix.count + suffix.count, channel.starts(with: prefix),
              Array(channel.suffix(suffix.count)) == suffix
        else { return nil }
        return String(decoding: channel[prefix.count..<(channel.count - suffix.count)], as: UTF8.self)
    }
}

/// The Lua script of every write (PUT, DEL, ATTACH, DETACH, MOVE, COPY):
/// loaded with SCRIPT LOAD on each connection and run with EVALSHA, so
/// that a write is one atomic step in Redis's order of commands.
///
/// It first checks that each document is at the revision the node based
/// the write on (`-`: absent); if one is not, it writes nothing and answers
/// `CONFLICT <id>`, and the node reloads the document and runs the request
/// again. Then, for each document, it increments the revision counter,
/// replaces or deletes the hash, updates the id index, and publishes
/// `CHANGED`/`DELETED` on the document's channel, inside the same step.
/// The reply is the new revisions, in order.
///
/// KEYS: per document its hash and revision counter, then `lectern:ids`.
/// ARGV: count, document limit, now (ms), "db node by" of the events, then
/// per document: id, expected revision or `-`, `put` or `del`, text, lang
/// (empty: none), mode, attachments (JSON).
enum RedisWriteScript {
    static let source = """
        local n = tonumber(ARGV[1])
        local limit = tonumber(ARGV[2])
        local ids = KEYS[2 * n + 1]
        local creates = 0
        for i = 0, n - 1 do
          local a = 5 + i * 7
          local current = redis.call('HGET', KEYS[2 * i + 1], 'revision')
          local expected = ARGV[a + 1]
          if (expected == '-' and current) or (expected ~= '-' and current ~= expected) then
            return redis.error_reply('CONFLICT ' .. ARGV[a])
          end
          if not current and ARGV[a + 2] == 'put' then creates = creates + 1 end
        end
        if creates > 0 and redis.call('ZCARD', ids) + creates > limit then
          return redis.error_reply('TOOMANY ' .. limit)
        end
        local revisions = {}
        for i = 0, n - 1 do
          local a = 5 + i * 7
          local id = ARGV[a]
          local doc = KEYS[2 * i + 1]
          local revision = redis.call('INCR', KEYS[2 * i + 2])
          local channel = 'lectern:{' .. id .. '}:events'
          redis.call('DEL', doc)
          if ARGV[a + 2] == 'put' then
            redis.call('HSET', doc, 'text', ARGV[a + 3], 'lang', ARGV[a + 4], 'mode', ARGV[a + 5],
              'attachments', ARGV[a + 6], 'revision', revision, 'updated', ARGV[3])
            redis.call('ZADD', ids, 0, id)
            redis.call('PUBLISH', channel, 'CHANGED ' .. ARGV[4] .. ' ' .. revision)
          else
            redis.call('ZREM', ids, id)
            redis.call('PUBLISH', channel, 'DELETED ' .. ARGV[4] .. ' ' .. revision)
          end
          revisions[i + 1] = revision
        end
        return revisions
        """
}

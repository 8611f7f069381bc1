// TypewriterStream.swift: one typewriter reveal of a document to one connection.

import LecternLayout
import LecternText

/// The state of one TYPE stream: where the reveal is, its pace, and its
/// clock. Ticks are due at `origin + elapsed`, where `elapsed` is the sum of
/// the delays of the ticks so far, so a late tick never shifts the later ones.
///
/// Loop thread only; recorded, while it runs, in ``ReaderRegistry`` (the
/// scheduler's heap knows it by id). Its connection is unowned: a closing
/// connection's streams leave the registry as it closes.
final class TypewriterStream {
    let id: Int
    unowned let connection: Connection
    let document: Document
    /// Milliseconds between graphemes.
    var interval: Double
    var sentencePause: Double
    var commaPause: Double
    /// Reading along: `! SENTENCE` when typing enters a new sentence.
    let follow: Bool

    /// Graphemes revealed.
    var position: Int
    /// Loop time (ms) the current run of ticks is measured from.
    var origin: Double = 0
    /// Sum of delays since `origin`; the next tick is due at `origin + elapsed`.
    var elapsed: Double = 0
    var isPaused = false
    /// Bumped whenever queued heap entries for this stream become stale
    /// (pause, seek, speed, restart, stop).
    var generation = 0
    /// Sentence of the last tick, for reading along.
    var lastSentence = -1
    init(id: Int, connection: Connection, document: Document, interval: Double,
         sentencePause: Double, commaPause: Double, follow: Bool, position: Int) {
        self.id = id
        self.connection = connection
        self.document = document
        self.interval = interval
        self.sentencePause = sentencePause
        self.commaPause = commaPause
        self.follow = follow
        self.position = position
    }

    var nextDeadline: Double { origin + elapsed }

    /// The coalescing keys (``Connection/send(event:coalescingKey:)``) of
    /// this stream's TICK and SENTENCE events: one each, so that a held
    /// tick never replaces a held sentence, and the tick's lower, so that
    /// held ones go out tick first, as they were made.
    var tickCoalescingKey: Int { id &* 2 }
    var sentenceCoalescingKey: Int { id &* 2 &+ 1 }

    /// Graphemes in the document.
    var total: Int { document.text.indexMap.length(in: .grapheme) }

    /// UTF-16 offset of the end of the revealed prefix.
    var revealedEnd: Int {
        (try? document.text.indexMap.utf16Offset(of: position, in: .grapheme)) ?? document.text.utf16.count
    }

    /// The delay after revealing the grapheme that ends at `end` (UTF-16):
    /// the interval, plus a pause after a sentence's end or a comma.
    func delay(afterRevealingTo end: Int) -> Double {
        var delay = interval
        guard end > 0 else { return delay }
        if sentencePause > 0, let sentence = document.sentence(containing: end - 1),
            sentence.content.upperBound == end
        {
            delay += sentencePause
        } else if commaPause > 0 {
            switch document.text.utf16[end - 1] {
            case 0x2C, 0x3001, 0xFF0C, 0x060C: delay += commaPause  // , 、 ， ،
            default: break
            }
        }
        return delay
    }
}

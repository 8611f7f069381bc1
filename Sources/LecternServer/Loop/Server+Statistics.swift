// Server+Statistics.swift: STATS's sections and figures, and the same
// figures in Prometheus's text exposition format.

import CUV
import Glibc
import LecternProtocol
import LecternStore

/// How a request left the gate, for its command's figures.
enum RequestEnd {
    /// Answered (or its handler sent the reply itself).
    case answered
    /// Answered with an error.
    case failed
    /// Its reply comes later (work off the loop): counted when it goes out.
    case deferred
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

// MARK: Recording

extension Server {
    /// Counts a request of the command at `command` that the gate took at
    /// `started` and left at `ended` (`uv_hrtime`, monotonic ns). A
    /// deferred request is counted once, when its reply goes out, with its
    /// whole time: the wait for work off the loop included
    /// (``finishDeferredRequest(on:failed:)``); a retry (`isRetry`, the
    /// request run again once its layout is ready) keeps the first pass's start.
    @inline(__always)
    func recordRequest(_ command: Int, from started: UInt64, to ended: UInt64, _ end: RequestEnd, on connection: Connection, isRetry: Bool) {
        var start = started
        if isRetry, let first = connection.deferredRequest {
            start = first.started
            connection.deferredRequest = nil
        }
        switch end {
        case .deferred:
            connection.deferredRequest = (command, start)
        case .answered, .failed:
            statistics.commands.record(command, nanoseconds: ended &- start, failed: end == .failed)
        }
    }

    /// The deferred request of `connection` got its reply (or error).
    func finishDeferredRequest(on connection: Connection, failed: Bool) {
        guard let (command, started) = connection.deferredRequest else { return }
        connection.deferredRequest = nil
        statistics.commands.record(command, nanoseconds: uv_hrtime() &- started, failed: failed)
    }
}

// MARK: The report

/// STATS's figures in sections, each figure with the Prometheus metric it
/// is exported as: one table for both formats, so that they cannot differ.
struct StatisticsReport {
    /// The sections, in the order STATS lists them.
    static let sectionNames = [
        "server", "clients", "commands", "errors", "memory", "store", "documents", "views", "watchers", "streams", "fanout",
    ]

    /// Documents listed one by one in the documents section: the largest by text bytes.
    static let listedDocuments = 10

    var sections: [Section] = []

    /// One `name value` figure of STATS.
    struct Figure {
        let name: String
        let value: Value
        enum Value {
            /// A whole number (a RESP integer).
            case count(Int)
            /// A word (a RESP bulk string).
            case text(String)
            /// `key=value` tokens (per-command and per-document figures; a RESP bulk string).
            case fields(String)
        }

        var valueText: String {
            switch value {
            case .count(let count): return WireNumber.text(count)
            case .text(let text), .fields(let text): return text
            }
        }
    }

    /// One Prometheus metric family: `# HELP`, `# TYPE`, its samples.
    struct Metric {
        let name: String
        let type: String
        let help: String
        var samples: [(labels: String, value: String)] = []
    }

    struct Section {
        let name: String
        var figures: [Figure] = []
        var metrics: [Metric] = []

        /// A whole-number figure, exported as `metric` (a counter when its
        /// name ends in `_total`, else a gauge) unless `metric` is nil.
        mutating func count(_ name: String, _ value: Int, metric: String?, help: String) {
            figures.append(Figure(name: name, value: .count(value)))
            if let metric {
                self.metric(metric, help: help, value: String(value))
            }
        }

        mutating func text(_ name: String, _ value: String) {
            figures.append(Figure(name: name, value: .text(value)))
        }

        mutating func fields(_ name: String, _ value: String) {
            figures.append(Figure(name: name, value: .fields(value)))
        }

        /// A metric with one sample (no labels).
        mutating func metric(_ name: String, help: String, labels: String = "", value: String) {
            metrics.append(Metric(name: name, type: name.hasSuffix("_total") ? "counter" : "gauge", help: help, samples: [(labels, value)]))
        }
    }

    /// The section named `name` (case-insensitive) alone, or nil.
    func only(_ name: String) -> StatisticsReport? {
        guard let section = sections.first(where: { $0.name == name.lowercased() }) else { return nil }
        return StatisticsReport(sections: [section])
    }

    /// STATS's reply: per section a `* # name` line then a `* name value`
    /// line per figure, then `OK STATS`; to Redis clients a map (RESP2: a
    /// flat array of pairs) of every figure's name to its value, counts as
    /// integers, the rest as bulk strings, section headers left out.
    var reply: Reply {
        var lines: [String] = []
        var pairs: [(RESPValue, RESPValue)] = []
        for section in sections {
            lines.append("# " + section.name)
            for figure in section.figures {
                lines.append(figure.name + " " + figure.valueText)
                switch figure.value {
                case .count(let count): pairs.append((.text(figure.name), .integer(count)))
                case .text(let text), .fields(let text): pairs.append((.text(figure.name), .text(text)))
                }
            }
        }
        var reply = Reply("STATS", data: lines)
        reply.resp = .map(pairs)
        return reply
    }

    /// The figures in Prometheus's text exposition format (version 0.0.4):
    /// each family's `# HELP` and `# TYPE` lines, then its samples.
    var prometheusText: String {
        var text = ""
        for section in sections {
            for metric in section.metrics {
                text += "# HELP \(metric.name) \(Self.escapedHelp(metric.help))\n"
                text += "# TYPE \(metric.name) \(metric.type)\n"
                // A histogram's samples carry their suffix (`_bucket{…}`) in the labels.
                for sample in metric.samples { text += metric.name + sample.labels + " " + sample.value + "\n" }
            }
        }
        return text
    }

    /// STATS format=prometheus: one data line per exposition line, then
    /// `OK STATS format=prometheus`; to Redis clients the whole text as one
    /// bulk string (as Redis answers INFO).
    var prometheusReply: Reply {
        let text = prometheusText
        var reply = Reply("STATS format=prometheus", data: text.split(separator: "\n").map(String.init))
        reply.resp = .text(text)
        return reply
    }

    static func escapedHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func escapedLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A Prometheus float: Swift's shortest exact spelling (`1.024e-06`, `0.5`).
    static func float(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Facts summed over every document, read in chunks (see
/// ``Server/takeDocumentCensus(_:)``).
struct DocumentCensus {
    var documents = 0
    var textBytes = 0
    var sentences = 0
    var paragraphs = 0
    var attachments = 0
    var layoutsCached = 0
    var highlightsCached = 0
    var defaultViews = 0
    /// The largest documents by text bytes, largest first, at most ``StatisticsReport/listedDocuments``.
    var largest: [(id: String, bytes: Int)] = []

    mutating func add(_ document: Document) {
        let bytes = document.text.indexMap.utf8Length
        documents += 1
        textBytes += bytes
        sentences += document.sentences.count
        paragraphs += document.text.paragraphs.count
        attachments += document.attachments.count
        layoutsCached += document.cachedLayoutCount
        highlightsCached += document.cachedHighlightCount
        if document.defaultView != nil { defaultViews += 1 }
        let limit = StatisticsReport.listedDocuments
        if largest.count == limit, let last = largest.last, bytes < last.bytes || (bytes == last.bytes && document.id > last.id) { return }
        let at = largest.firstIndex { $0.bytes < bytes || ($0.bytes == bytes && $0.id > document.id) } ?? largest.count
        largest.insert((document.id, bytes), at: at)
        if largest.count > limit { largest.removeLast() }
    }
}

/// The census's reading state between loop turns (loop thread only).
private final class CensusBox {
    var census = DocumentCensus()
}

extension Server {
    /// Documents whose facts the census reads on the loop thread per loop turn.
    static let censusChunk = 1024

    /// Sums the facts of every document for STATS and /metrics. With at
    /// most ``censusChunk`` documents `done` runs before this returns;
    /// with more, the documents are read ``censusChunk`` per loop turn (a
    /// round trip through the pool between chunks, as LIST does), a
    /// document deleted meanwhile left out, and `done` runs later.
    func takeDocumentCensus(_ done: @escaping (DocumentCensus) -> Void) {
        guard documents.count > Self.censusChunk else {
            var census = DocumentCensus()
            for id in documents.allIDs { if let document = documents[id] { census.add(document) } }
            done(census)
            return
        }
        census(of: documents.allIDs, from: 0, into: CensusBox(), done)
    }

    private func census(of ids: [String], from start: Int, into box: CensusBox, _ done: @escaping (DocumentCensus) -> Void) {
        let end = min(ids.count, start + Self.censusChunk)
        for id in ids[start..<end] {
            if let document = documents[id] { box.census.add(document) }
        }
        guard end < ids.count else {
            done(box.census)
            return
        }
        BackgroundWork.run(on: loop, {}, then: { [unowned self] in
            census(of: ids, from: end, into: box, done)
        })
    }

    /// Every section of STATS, from the counters and `census`.
    func statisticsReport(census: DocumentCensus) -> StatisticsReport {
        var report = StatisticsReport()
        report.sections = [
            serverSection(), clientsSection(), commandsSection(), errorsSection(), memorySection(census),
            storeSection(), documentsSection(census), viewsSection(census), watchersSection(), streamsSection(),
            fanoutSection(),
        ]
        return report
    }

    private func serverSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "server")
        section.text("version", Lectern.version)
        section.metric("lectern_info", help: "The daemon's version (always 1).", labels: "{version=\"\(StatisticsReport.escapedLabel(Lectern.version))\"}", value: "1")
        let uptime = Int(clamping: (uv_now(loop) &- statistics.startTime) / 1000)
        section.count("uptime_seconds", uptime, metric: "lectern_uptime_seconds", help: "Seconds since the daemon started.")
        section.count("process_id", Int(getpid()), metric: nil, help: "")
        section.count("protocol_version", Server.protocolVersion, metric: nil, help: "")
        section.text("tcp_address", boundAddress)
        section.text("metrics_address", metrics?.address ?? "off")
        return section
    }

    private func clientsSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "clients")
        var resp = 0
        var authenticated = 0
        for connection in openConnections {
            if connection.session.speaksRESP { resp += 1 }
            if connection.session.isAuthenticated { authenticated += 1 }
        }
        section.count("connections", openConnections.count, metric: "lectern_connections", help: "Open connections.")
        section.count("connections_resp", resp, metric: "lectern_connections_resp", help: "Open connections that have sent RESP (Redis) requests.")
        section.count("connections_authenticated", authenticated, metric: "lectern_connections_authenticated", help: "Open connections allowed every command (authenticated, or no token required).")
        section.count("connections_accepted", statistics.connectionsAccepted, metric: "lectern_connections_accepted_total", help: "Connections accepted since start.")
        section.count("connections_refused", statistics.connectionsRefused, metric: "lectern_connections_refused_total", help: "Connections refused with MAXCLIENTS since start.")
        section.count("bytes_in", statistics.bytesReceived, metric: "lectern_received_bytes_total", help: "Bytes read from clients since start.")
        section.count("bytes_out", statistics.bytesSent, metric: "lectern_sent_bytes_total", help: "Bytes of replies and events the kernel took since start.")
        section.count("turn_yields", statistics.turnYields, metric: "lectern_turn_yields_total", help: "Times a connection spent its per-turn budget with requests still buffered.")
        section.count("output_pauses", statistics.outputPauses, metric: "lectern_output_pauses_total", help: "Times a connection was paused because its unsent output passed --output-soft-limit.")
        return section
    }

    private func commandsSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "commands")
        let rate = statistics.rate
        section.count("commands_processed", statistics.commandsProcessed, metric: "lectern_commands_processed_total", help: "Requests run since start, each once, refused ones included.")
        section.count("commands_per_second", rate.average(over: 1), metric: nil, help: "")
        section.text("commands_per_second_10s", WireNumber.text(rate.exactAverage(over: 10)))
        section.text("commands_per_second_60s", WireNumber.text(rate.exactAverage(over: 60)))
        var perSecond = StatisticsReport.Metric(name: "lectern_commands_per_second", type: "gauge", help: "Requests per second, averaged over the last 1, 10 or 60 whole seconds.")
        for window in [1, 10, 60] {
            perSecond.samples.append(("{window=\"\(window)s\"}", StatisticsReport.float(rate.exactAverage(over: window))))
        }
        section.metrics.append(perSecond)
        section.count("background_replies", statistics.backgroundReplies, metric: "lectern_background_replies_total", help: "Replies built off the loop thread because they grow with a document.")

        let figures = statistics.commands
        var calls = StatisticsReport.Metric(name: "lectern_command_calls_total", type: "counter", help: "Requests per command, refused ones included.")
        var errors = StatisticsReport.Metric(name: "lectern_command_errors_total", type: "counter", help: "Requests per command answered with an error.")
        var durations = StatisticsReport.Metric(name: "lectern_command_duration_seconds", type: "histogram", help: "Time from a request's start at the gate to its reply, per command (work off the loop included).")
        for (index, command) in commands.commands.enumerated() where figures.calls(index) > 0 {
            let count = figures.calls(index)
            let nanoseconds = figures.nanoseconds(index)
            let usec = Double(nanoseconds) / 1000
            let p50 = Double(figures.percentile(0.5, of: index)) / 1000
            let p99 = Double(figures.percentile(0.99, of: index)) / 1000
            section.fields(
                "command_" + command.name.lowercased(),
                "calls=\(count) errors=\(figures.errors(index)) usec=\(Int(usec)) usec_per_call=\(WireNumber.text(usec / Double(count)))"
                    + " p50_usec=\(WireNumber.text(p50)) p99_usec=\(WireNumber.text(p99))")
            let label = "command=\"\(command.name)\""
            calls.samples.append(("{\(label)}", String(count)))
            errors.samples.append(("{\(label)}", String(figures.errors(index))))
            // Cumulative buckets at each power of two from 2^10 ns; the
            // internal quarter-octave buckets add up exactly to them.
            var cumulative = 0
            for (bucket, inBucket) in figures.histogram(of: index).enumerated() {
                cumulative += inBucket
                guard let bound = CommandStatistics.upperBound(ofBucket: bucket), bound & (bound - 1) == 0 else { continue }
                durations.samples.append(("_bucket{\(label),le=\"\(StatisticsReport.float(Double(bound) / 1e9))\"}", String(cumulative)))
            }
            durations.samples.append(("_bucket{\(label),le=\"+Inf\"}", String(count)))
            durations.samples.append(("_sum{\(label)}", StatisticsReport.float(Double(nanoseconds) / 1e9)))
            durations.samples.append(("_count{\(label)}", String(count)))
        }
        section.metrics += [calls, errors, durations]
        return section
    }

    private func errorsSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "errors")
        let byCode = statistics.errorsByCode
        section.count("errors", statistics.errors, metric: nil, help: "")
        var metric = StatisticsReport.Metric(name: "lectern_errors_total", type: "counter", help: "Error replies sent, by error code.")
        for code in ErrorCode.allCases {
            let count = byCode[code] ?? 0
            if count > 0 { section.count("error_" + code.rawValue, count, metric: nil, help: "") }
            metric.samples.append(("{code=\"\(code.rawValue)\"}", String(count)))
        }
        section.metrics.append(metric)
        return section
    }

    private func memorySection(_ census: DocumentCensus) -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "memory")
        var pending = 0
        var largest = 0
        for connection in openConnections {
            pending += connection.pendingOutputBytes
            largest = max(largest, connection.pendingOutputBytes)
        }
        section.count("memory_rss_bytes", ServerStatistics.residentBytes(), metric: "lectern_memory_rss_bytes", help: "Resident memory of the daemon.")
        section.count("memory_text_bytes", census.textBytes, metric: "lectern_memory_text_bytes", help: "UTF-8 bytes of all documents' text.")
        section.count("layouts_cached", census.layoutsCached, metric: "lectern_layouts_cached", help: "Layouts held in the documents' layout caches.")
        section.count("highlights_cached", census.highlightsCached, metric: "lectern_highlights_cached", help: "Highlight tables (per offset unit) held with the cached layouts.")
        section.count("output_pending_bytes", pending, metric: "lectern_output_pending_bytes", help: "Reply and event bytes waiting to be sent, all connections.")
        section.count("output_pending_max_bytes", largest, metric: "lectern_output_pending_max_bytes", help: "The most unsent bytes any one connection has.")
        section.count("output_hard_limit_bytes", configuration.outputHardLimit, metric: "lectern_output_hard_limit_bytes", help: "Unsent output that closes a connection (--output-hard-limit).")
        return section
    }

    private func storeSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "store")
        let sqlite = persistence?.store as? SQLiteDocumentStore
        let kind = cluster != nil ? "redis" : sqlite == nil ? "memory" : "sqlite"
        let path = cluster?.address.description ?? sqlite?.databasePath ?? "none"
        section.text("store_kind", kind)
        section.text("store_path", path)
        section.metric("lectern_store_info", help: "The store's kind and path (always 1).", labels: "{kind=\"\(kind)\",path=\"\(StatisticsReport.escapedLabel(path))\"}", value: "1")
        var bytes = 0
        if let sqlite {
            // Two stat calls, no I/O: the database and its write-ahead log.
            for file in [sqlite.databasePath, sqlite.databasePath + "-wal"] {
                var info = stat()
                if stat(file, &info) == 0 { bytes += Int(info.st_size) }
            }
        }
        section.count("store_file_bytes", bytes, metric: "lectern_store_file_bytes", help: "Bytes of the SQLite database and its write-ahead log (0 in memory).")
        section.count("store_documents", documents.count, metric: "lectern_store_documents", help: "Documents held (with --redis: cached on this node).")
        section.count("store_pending_writes", cluster?.pendingWrites ?? persistence.pendingWrites, metric: "lectern_store_pending_writes", help: "Store writes waiting or running.")
        section.count("store_read_only", sqlite?.readOnlyReason == nil ? 0 : 1, metric: "lectern_store_read_only", help: "1 when the data directory is read-only (writes are refused).")
        section.count("store_unavailable", cluster.map { $0.isAvailable ? 0 : 1 } ?? 0, metric: "lectern_store_unavailable", help: "1 while --redis cannot reach Redis (writes get ERR UNAVAILABLE).")
        return section
    }

    private func documentsSection(_ census: DocumentCensus) -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "documents")
        section.count("documents", documents.count, metric: "lectern_documents", help: "Documents held.")
        section.count("document_sentences", census.sentences, metric: "lectern_document_sentences", help: "Sentences of all documents.")
        section.count("document_paragraphs", census.paragraphs, metric: "lectern_document_paragraphs", help: "Paragraphs of all documents.")
        section.count("document_attachments", census.attachments, metric: "lectern_document_attachments", help: "Inline attachments of all documents.")
        section.count("document_largest_bytes", census.largest.first?.bytes ?? 0, metric: "lectern_document_largest_bytes", help: "UTF-8 bytes of the largest document.")
        for (id, _) in census.largest {
            guard let document = documents[id] else { continue }
            section.fields(
                "document_" + id,
                "bytes=\(document.text.indexMap.utf8Length) sentences=\(document.sentences.count) paragraphs=\(document.text.paragraphs.count)"
                    + " revision=\(document.revision) attachments=\(document.attachments.count) layouts=\(document.cachedLayoutCount)"
                    + " watchers=\(readers.watchers(of: document).count) streams=\(readers.streams(of: document).count)")
        }
        return section
    }

    private func viewsSection(_ census: DocumentCensus) -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "views")
        var views = 0
        for connection in openConnections { views += connection.session.views.count }
        section.count("views", views, metric: "lectern_views", help: "Views connections hold (VIEW).")
        section.count("default_views", census.defaultViews, metric: "lectern_default_views", help: "Documents with a default view.")
        section.count("layouts_computed", layouts.computedCount, metric: "lectern_layouts_computed_total", help: "Layouts computed since start, wherever they ran.")
        section.count("layouts_background", layouts.computedInBackgroundCount, metric: "lectern_layouts_background_total", help: "Layouts computed off the loop thread since start.")
        return section
    }

    private func watchersSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "watchers")
        section.count("watches", readers.watchCount, metric: "lectern_watches", help: "Documents watched, counted per watching connection.")
        section.count("watching_connections", readers.watchingConnectionCount, metric: "lectern_watching_connections", help: "Connections that watch at least one document.")
        return section
    }

    private func streamsSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "streams")
        section.count("streams", readers.streamCount, metric: "lectern_streams", help: "Typewriter streams running.")
        section.count("ticks_sent", typewriters.ticksSent, metric: "lectern_ticks_sent_total", help: "Typewriter ticks sent since start.")
        section.count("ticks_skipped", typewriters.ticksSkipped, metric: "lectern_ticks_skipped_total", help: "Typewriter ticks that skipped ahead because their stream fell behind.")
        section.count("events_coalesced", statistics.eventsCoalesced, metric: "lectern_events_coalesced_total", help: "Stream events held back or replaced because their reader was behind.")
        return section
    }

    private func fanoutSection() -> StatisticsReport.Section {
        var section = StatisticsReport.Section(name: "fanout")
        section.count("events_sent", statistics.eventsSent, metric: "lectern_events_sent_total", help: "Events queued to connections since start (ticks, highlights, changes).")
        section.count("event_bytes", eventBytesQueued, metric: "lectern_event_bytes_total", help: "Bytes of the events queued to connections since start.")
        return section
    }
}

extension Server {
    /// Sections whose figures need the document census.
    static let censusSections: Set<String> = ["memory", "documents", "views"]

    /// STATS's reply: every section or `section`, as lines or Prometheus
    /// text. Now, unless the daemon holds more than ``censusChunk``
    /// documents and the section needs their census: then deferred until
    /// the census is read (``takeDocumentCensus(_:)``).
    func statisticsOutcome(section: String?, prometheus: Bool, _ context: CommandContext) -> CommandOutcome {
        let build = { [unowned self] (census: DocumentCensus) -> Reply in
            var report = statisticsReport(census: census)
            if let section, let only = report.only(section) { report = only }
            return prometheus ? report.prometheusReply : report.reply
        }
        guard section.map(Self.censusSections.contains) ?? true else { return .reply(build(DocumentCensus())) }
        var now: Reply?
        var isWaiting = false
        let connection = context.connection
        let tag = context.request.tag
        takeDocumentCensus { census in
            if isWaiting {
                connection.completeDeferredReply(.success(build(census)), tag: tag)
            } else {
                now = build(census)
            }
        }
        if let now { return .reply(now) }
        isWaiting = true
        connection.deferReply()
        return .deferred
    }

    /// The whole report in Prometheus text, for the metrics endpoint: `done`
    /// runs on the loop thread, now or once the census is read.
    func prometheusSnapshot(_ done: @escaping (String) -> Void) {
        takeDocumentCensus { [unowned self] census in done(statisticsReport(census: census).prometheusText) }
    }
}

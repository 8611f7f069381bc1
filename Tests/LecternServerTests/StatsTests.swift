// StatsTests.swift: STATS in sections (as Redis INFO), STATS
// format=prometheus, and --metrics-port's GET /metrics (curl), against a
// live daemon (issue 18 item 9).

import Foundation
import Glibc
import Testing

@Suite struct StatsTests {
    /// STATS (or `STATS <arguments>`) as figure name → value (the rest of
    /// the line), with the section headers in order.
    private func stats(_ client: LineClient, _ arguments: String = "") throws -> (sections: [String], figures: [String: String]) {
        var sections: [String] = []
        var figures: [String: String] = [:]
        let reply = try client.request(arguments.isEmpty ? "STATS" : "STATS \(arguments)")
        #expect(reply.last == "OK STATS")
        for line in reply where line.hasPrefix("* ") {
            let text = line.dropFirst(2)
            if text.hasPrefix("# ") {
                sections.append(String(text.dropFirst(2)))
                continue
            }
            let name = text.prefix { $0 != " " }
            figures[String(name)] = String(text.dropFirst(name.count + 1))
        }
        return (sections, figures)
    }

    /// `calls=3 errors=0 …` as numbers by key.
    private func fields(_ text: String?) -> [String: Double] {
        var values: [String: Double] = [:]
        for token in (text ?? "").split(separator: " ") {
            let parts = token.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    @Test func sectionsCountKnownRequests() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        for _ in 0..<3 { #expect(try client.request("PING") == ["OK PONG"]) }
        #expect(try client.request("PUT d \"One. Two.\"").last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("VIEW d width=abc").first?.hasPrefix("ERR NUMBER") == true)
        #expect(try client.request("TAP nothing 1 1").first?.hasPrefix("ERR NODOC") == true)
        #expect(try client.request("NOSUCH").first?.hasPrefix("ERR UNKNOWN") == true)

        let all = try stats(client)
        #expect(all.sections == ["server", "clients", "commands", "errors", "memory", "store", "documents", "views", "watchers", "streams", "fanout"])
        let ping = fields(all.figures["command_ping"])
        #expect(ping["calls"] == 3)
        #expect(ping["errors"] == 0)
        #expect((ping["p50_usec"] ?? 0) > 0)
        #expect((ping["p50_usec"] ?? 0) <= (ping["p99_usec"] ?? 0))
        #expect(fields(all.figures["command_view"])["errors"] == 1)
        #expect(fields(all.figures["command_tap"]) ["calls"] == 1)
        #expect(all.figures["command_del"] == nil, "a command never called is not listed")
        #expect(all.figures["error_NUMBER"] == "1")
        #expect(all.figures["error_NODOC"] == "1")
        #expect(all.figures["error_UNKNOWN"] == "1")
        #expect(all.figures["errors"] == "3")
        // The figures of before, by their names.
        #expect(all.figures["commands_processed"] == "8")
        #expect(all.figures["connections"] == "1")
        #expect(all.figures["documents"] == "1")
        #expect(all.figures["store_kind"] == "memory")
        #expect(all.figures["memory_text_bytes"] == "9")
        #expect(all.figures["document_sentences"] == "2")
        #expect(fields(all.figures["document_d"])["bytes"] == 9)
        #expect(Int(all.figures["bytes_in"] ?? "") ?? 0 > 0)
        #expect(Int(all.figures["bytes_out"] ?? "") ?? 0 > 0)
        for window in ["commands_per_second", "commands_per_second_10s", "commands_per_second_60s"] {
            #expect(all.figures[window].flatMap(Double.init) != nil, "\(window)")
        }

        // One section, as Redis INFO <section>; case does not matter.
        let errors = try stats(client, "ERRORS")
        #expect(errors.sections == ["errors"])
        #expect(errors.figures == ["errors": "3", "error_NUMBER": "1", "error_NODOC": "1", "error_UNKNOWN": "1"])
        #expect(try client.request("STATS bogus").first?.hasPrefix("ERR ARGS no STATS section 'bogus'; sections: server, clients,") == true)
        #expect(try client.request("STATS format=json").first?.hasPrefix("ERR ARGS") == true)
    }

    /// A request whose layout is computed off the loop (a document over
    /// 8,192 UTF-16 units) is counted once, when its reply goes out.
    @Test func aDeferredRequestCountsOnce() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        let text = String(repeating: "The river rose before morning. ", count: 400)
        client.send("PUT big {\(text.utf8.count)}\n\(text)\n")
        #expect(try client.readReply().last?.hasPrefix("OK PUT") == true)
        #expect(try client.request("VIEW big width=300").last?.hasPrefix("OK VIEW") == true)
        let all = try stats(client)
        #expect(all.figures["layouts_background"] == "1")
        #expect(fields(all.figures["command_view"])["calls"] == 1)
        #expect(fields(all.figures["command_view"])["errors"] == 0)
    }

    /// The documents section lists the 10 largest documents one by one
    /// (StatisticsReport.listedDocuments), largest first; with more than
    /// 1,024 documents (Server.censusChunk) it reads them over several loop
    /// turns and still counts every one.
    @Test func theDocumentsSectionListsTheLargestAndCountsAll() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        for n in 1...11 {
            let text = String(repeating: "Word. ", count: n)
            #expect(try client.request("PUT d\(n) \"\(text)\"").last?.hasPrefix("OK PUT") == true)
        }
        let reply = try client.request("STATS documents")
        let listed = reply.filter { $0.hasPrefix("* document_d") }.map { $0.split(separator: " ")[1] }
        #expect(listed == ["document_d11", "document_d10", "document_d9", "document_d8", "document_d7", "document_d6",
                           "document_d5", "document_d4", "document_d3", "document_d2"])
        #expect(try stats(client, "documents").figures["document_sentences"] == String((1...11).reduce(0, +)))

        let count = 1_100
        var batch = ""
        for n in 12...count { batch += "PUT d\(n) \"One. Two.\"\n" }
        client.send(batch)
        for _ in 12...count { _ = try client.readReply() }
        let all = try stats(client, "documents")
        #expect(all.figures["documents"] == String(count))
        #expect(all.figures["document_sentences"] == String((1...11).reduce(0, +) + 2 * (count - 11)))
        #expect(try stats(client, "memory").figures["memory_text_bytes"] == String(6 * (1...11).reduce(0, +) + 9 * (count - 11)))
    }

    // MARK: Prometheus

    /// One sample of an exposition: name, labels, value.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Parses Prometheus text format 0.0.4, checking as it goes that every
    /// sample's family has `# HELP` and `# TYPE` before it and every name
    /// is `lectern_*`.
    private func parsePrometheus(_ lines: [String]) throws -> [Sample] {
        var helped: Set<String> = []
        var types: [String: String] = [:]
        var samples: [Sample] = []
        let sample = try NSRegularExpression(pattern: #"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$"#)
        let label = try NSRegularExpression(pattern: #"([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)""#)
        for line in lines where !line.isEmpty {
            if line.hasPrefix("# HELP ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                helped.insert(String(name))
                continue
            }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                #expect(parts.count == 4 && ["counter", "gauge", "histogram", "summary"].contains(parts[3]), "\(line)")
                types[String(parts[2])] = String(parts[3])
                continue
            }
            let range = NSRange(line.startIndex..., in: line)
            let match = try #require(sample.firstMatch(in: line, range: range), "not a sample: \(line)")
            let name = String(line[Range(match.range(at: 1), in: line)!])
            var labels: [String: String] = [:]
            if let labelRange = Range(match.range(at: 3), in: line) {
                let text = String(line[labelRange])
                for found in label.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    labels[String(text[Range(found.range(at: 1), in: text)!])] = String(text[Range(found.range(at: 2), in: text)!])
                }
            }
            let valueText = String(line[Range(match.range(at: 4), in: line)!])
            let value = try #require(valueText == "+Inf" ? Double.infinity : Double(valueText), "bad value: \(line)")
            let family = ["_bucket", "_sum", "_count"].reduce(name) { family, suffix in
                types[family] == nil && family.hasSuffix(suffix) ? String(family.dropLast(suffix.count)) : family
            }
            #expect(family.hasPrefix("lectern_"), "\(line)")
            #expect(helped.contains(family) && types[family] != nil, "no HELP or TYPE before \(line)")
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return samples
    }

    private func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// Checks the figures after 3 PINGs and an ERR NUMBER, and that every
    /// command's histogram is cumulative and ends in its count.
    private func checkKnownRequests(_ samples: [Sample]) {
        #expect(value(samples, "lectern_command_calls_total", ["command": "PING"]) == 3)
        #expect(value(samples, "lectern_command_errors_total", ["command": "PING"]) == 0)
        #expect(value(samples, "lectern_command_errors_total", ["command": "VIEW"]) == 1)
        #expect(value(samples, "lectern_errors_total", ["code": "NUMBER"]) == 1)
        #expect(value(samples, "lectern_errors_total", ["code": "NODOC"]) == 0)
        #expect(value(samples, "lectern_documents") == 1)
        #expect(value(samples, "lectern_info", ["version": "0.1.0"]) == 1)
        #expect(value(samples, "lectern_store_info", ["kind": "memory", "path": "none"]) == 1)
        #expect(value(samples, "lectern_command_duration_seconds_count", ["command": "PING"]) == 3)
        #expect((value(samples, "lectern_command_duration_seconds_sum", ["command": "PING"]) ?? 0) > 0)
        let buckets = samples.filter { $0.name == "lectern_command_duration_seconds_bucket" && $0.labels["command"] == "PING" }
        #expect(buckets.count > 10)
        #expect(buckets.map(\.value) == buckets.map(\.value).sorted(), "cumulative")
        #expect(buckets.last?.labels["le"] == "+Inf")
        #expect(buckets.last?.value == 3)
    }

    @Test func prometheusFormatParses() throws {
        let daemon = try Daemon()
        let client = try daemon.connect()
        for _ in 0..<3 { _ = try client.request("PING") }
        _ = try client.request("PUT d \"One. Two.\"")
        _ = try client.request("VIEW d width=abc")
        let reply = try client.request("STATS format=prometheus")
        #expect(reply.last == "OK STATS format=prometheus")
        let lines = reply.dropLast().map { line in
            #expect(line.hasPrefix("* "))
            return String(line.dropFirst(2))
        }
        checkKnownRequests(try parsePrometheus(lines))
        // A section alone, in Prometheus text too.
        let errors = try parsePrometheus(try client.request("STATS errors format=prometheus").dropLast().map { String($0.dropFirst(2)) })
        #expect(Set(errors.map(\.name)) == ["lectern_errors_total"])
    }

    // MARK: --metrics-port

    /// Runs curl (with a bounded time) and returns its output.
    private func curl(_ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--max-time", "20"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "curl \(arguments)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The metrics port a daemon logged (`event=metrics_listening addr=127.0.0.1:PORT`).
    private func metricsAddress(_ daemon: Daemon) throws -> String {
        let line = try #require(daemon.log.split(separator: "\n").first { $0.contains("event=metrics_listening") })
        let address = try #require(line.split(separator: " ").first { $0.hasPrefix("addr=") })
        return String(address.dropFirst(5))
    }

    @Test func metricsPortServesPrometheusToCurl() throws {
        let daemon = try Daemon(["--metrics-port", "0"])
        let address = try metricsAddress(daemon)
        #expect(address.hasPrefix("127.0.0.1:"), "loopback by default")
        let client = try daemon.connect()
        for _ in 0..<3 { _ = try client.request("PING") }
        _ = try client.request("PUT d \"One. Two.\"")
        _ = try client.request("VIEW d width=abc")
        let body = try curl("http://\(address)/metrics")
        checkKnownRequests(try parsePrometheus(body.split(separator: "\n").map(String.init)))
        // The same figures as STATS format=prometheus (a scrape is no request).
        #expect(try curl("-o", "/dev/null", "-w", "%{content_type}", "http://\(address)/metrics") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(try curl("-o", "/dev/null", "-w", "%{http_code}", "http://\(address)/") == "404")
        #expect(try curl("-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "http://\(address)/metrics") == "405")
        // STATS names where it serves them.
        #expect(try stats(client, "server").figures["metrics_address"] == address)
        #expect(daemon.stop() == 0)
    }

    @Test func aTakenMetricsPortIsAStartUpError() throws {
        // A port this test holds, listening.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(holder, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)

        let (status, log) = try Daemon.failedStart(["--memory", "--port", "0", "--metrics-port", String(port)])
        #expect(status == 1)
        #expect(log.contains("cannot serve metrics on 127.0.0.1:\(port): the address is in use"), "\(log)")
    }

    // MARK: Redis clients

    @Test func redisCliReadsStats() throws {
        let daemon = try Daemon()
        func cli(_ arguments: String...) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["redis-cli", "-p", String(daemon.port)] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        _ = try cli("PING")
        // A map (RESP2: pairs) of names to values; per-command figures as text.
        let commands = try cli("STATS", "commands")
        #expect(commands.contains("command_ping\ncalls=1 errors=0 usec="), "\(commands)")
        #expect(commands.contains("commands_processed\n"))
        // Prometheus text as one bulk string, printed as is.
        let prometheus = try cli("STATS", "clients", "format=prometheus")
        #expect(prometheus.contains("# TYPE lectern_connections_accepted_total counter\nlectern_connections_accepted_total 3\n"), "\(prometheus)")
    }
}

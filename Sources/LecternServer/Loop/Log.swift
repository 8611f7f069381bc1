// Log.swift: one structured (logfmt) line per event, on standard error.

import Foundation
import LecternProtocol

/// Structured logging: `ts=… level=info event=listening addr=127.0.0.1:7878`.
///
/// One line per connection event and error, in logfmt so that both people
/// and `grep`/log shippers read it. Values with spaces, quotes or `=` are
/// quoted. Lines go to standard error unbuffered, so a supervisor (systemd,
/// a test harness) sees each as it happens.
///
/// Loop thread only; it keeps no state but the minimum level.
public enum Log {
    public enum Level: Int, Comparable, Sendable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        var name: String { ["debug", "info", "warn", "error"][rawValue] }
    }

    nonisolated(unsafe) public static var minimumLevel: Level = .info

    /// Start-up and shutdown lines (where the daemon listens, that it
    /// stopped): written at level info whatever the minimum level, since
    /// supervisors and people rely on them.
    public static func lifecycle(_ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible> = [:]) {
        emit(line(.info, event, fields))
    }

    public static func debug(_ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible> = [:]) {
        write(.debug, event, fields)
    }
    public static func info(_ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible> = [:]) {
        write(.info, event, fields)
    }
    public static func warning(_ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible> = [:]) {
        write(.warning, event, fields)
    }
    public static func error(_ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible> = [:]) {
        write(.error, event, fields)
    }

    /// The logfmt line, without its newline (separate for tests).
    static func line(_ level: Level, _ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible>) -> String {
        var line = "ts=\(timestamp()) level=\(level.name) event=\(value(event))"
        for (key, field) in fields {
            line += " \(key)=\(value(field.description))"
        }
        return line
    }

    private static func write(_ level: Level, _ event: String, _ fields: KeyValuePairs<String, CustomStringConvertible>) {
        guard level >= minimumLevel else { return }
        emit(line(level, event, fields))
    }

    private static func emit(_ line: String) {
        (line + "\n").utf8CString.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { _ = fputs(base, stderr) }
        }
    }

    private static func value(_ raw: String) -> String {
        let needsQuotes = raw.isEmpty || raw.unicodeScalars.contains {
            $0 == " " || $0 == "=" || $0 == "\"" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F
        }
        return needsQuotes ? ReplyEncoder.quote(raw) : raw
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = now.tv_nsec / 1_000_000
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(millis))
    }
}

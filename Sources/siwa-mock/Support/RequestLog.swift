#if canImport(Glibc)
import Glibc
#endif
import HTTPServer

/// One line per request on stderr: time, peer, method, path (never the query or body, which can hold
/// codes and secrets), status and latency.
struct RequestLog: Sendable {
    let console = Console()

    func record(_ exchange: HTTPExchangeRecord) {
        let path = exchange.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? exchange.target
        console.err(
            "\(Self.timestamp()) \(exchange.remoteAddress) \(exchange.method) \(path) \(exchange.status) "
                + "\(exchange.durationMicroseconds)us")
    }

    func note(_ message: String) {
        console.err("\(Self.timestamp()) \(message)")
    }

    /// RFC 3339 UTC with milliseconds, without Foundation (startup cost matters: design.md §3).
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))."
            + "\(pad(Int32(spec.tv_nsec / 1_000_000), 3))Z"
    }
}

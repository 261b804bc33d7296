import EventLoop
import HTTP
import JSON
import SIWACore
import SIWAServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One line per request on stderr, as text or JSON Lines: time, request id, peer, method, path (never
/// the query or body, which can hold codes and secrets), status, latency and the responder's log fields
/// (`client_id`, `user`, `fault`…), with secrets replaced by a fingerprint.
struct RequestLog: Sendable {
    let console = Console()
    let settings: LogSettings
    private let sequence: RequestSequence

    init(settings: LogSettings = LogSettings()) {
        self.settings = settings
        sequence = RequestSequence()
    }

    /// Writes the lines of one batch of exchanges (one event-loop pass) with one `write(2)`; the batch
    /// shares one timestamp (its exchanges finished within the same pass, well under a millisecond).
    func record(_ exchanges: [HTTPExchangeRecord]) {
        var out: [UInt8] = []
        var time: String?
        for exchange in exchanges {
            // Below --log-level nothing is formatted at all (no timestamp, no request id).
            guard Self.level(of: exchange) >= settings.minimumLevel else { continue }
            let stamp = time ?? Self.timestamp()
            time = stamp
            appendLine(for: exchange, requestID: sequence.next(), time: stamp, to: &out)
            out.append(UInt8(ascii: "\n"))
        }
        if !out.isEmpty { console.err(bytes: out) }
    }

    /// 5xx are errors, except the 503 "starting" answered before the mock is ready (a `health --wait` poll
    /// races the start-up: debug); health probes are debug (a container polls them every few seconds); the
    /// rest info.
    static func level(of exchange: HTTPExchangeRecord) -> LogSettings.Level {
        if exchange.logFields[LateBoundResponder.startingField] != nil { return .debug }
        if exchange.status.code >= 500 { return .error }
        return exchange.target == "/mock/health" ? .debug : .info
    }

    /// The log line for one exchange, or nil when its level is below `--log-level`.
    func line(for exchange: HTTPExchangeRecord, requestID id: String, time: String) -> String? {
        guard Self.level(of: exchange) >= settings.minimumLevel else { return nil }
        var out: [UInt8] = []
        appendLine(for: exchange, requestID: id, time: time, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the line (without its newline). The text format is written as bytes, piece by piece: at
    /// `info` every request is logged, and building it by string interpolation was ~20 % of a logged
    /// `GET /auth/keys` (bench/RESULTS.md).
    private func appendLine(for exchange: HTTPExchangeRecord, requestID id: String, time: String, to out: inout [UInt8])
    {
        let level = Self.level(of: exchange)
        let target = exchange.target
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        let fields = exchange.logFields.sorted { $0.key < $1.key }.map {
            ($0.key, SecretFingerprint.redact($0.key, $0.value))
        }
        switch settings.format {
        case .text:
            let space = UInt8(ascii: " ")
            out.append(contentsOf: time.utf8)
            out.append(space)
            out.append(contentsOf: exchange.remoteAddress.utf8)
            out.append(space)
            out.append(contentsOf: exchange.method.rawValue.utf8)
            out.append(space)
            out.append(contentsOf: Self.escaped(path).utf8)
            out.append(space)
            out.append(contentsOf: exchange.status.description.utf8)
            out.append(space)
            out.append(contentsOf: String(exchange.durationMicroseconds).utf8)
            out.append(contentsOf: "us id=".utf8)
            out.append(contentsOf: id.utf8)
            if exchange.secure { out.append(contentsOf: " tls".utf8) }
            for (name, value) in fields {
                out.append(space)
                out.append(contentsOf: name.utf8)
                out.append(UInt8(ascii: "="))
                out.append(contentsOf: Self.escaped(Self.quotedIfNeeded(value)).utf8)
            }
        case .json:
            var object: [(String, JSONValue)] = [
                ("time", .string(time)), ("level", .string(level.name)), ("msg", "request"),
                ("request_id", .string(id)), ("method", .string(exchange.method.rawValue)), ("path", .string(path)),
                ("status", .int(Int64(exchange.status.code))),
                ("latency_ms", .double(Double(exchange.durationMicroseconds) / 1000)),
                ("client", .string(exchange.remoteAddress)), ("scheme", .string(exchange.secure ? "https" : "http")),
            ]
            object += fields.map { ($0.0, JSONValue.string($0.1)) }
            out.append(contentsOf: JSONValue.object(JSONObject(object)).serialized())
        }
    }

    /// A text-format value as is, or in double quotes with `"` and `\` escaped when it has spaces or
    /// quotes (a refusal's reason is a sentence), so `key=value` pairs stay parseable.
    static func quotedIfNeeded(_ value: String) -> String {
        guard value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) || value.isEmpty else { return value }
        var out = "\""
        for character in value {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    /// A connection-level problem (failed TLS handshake, plain HTTP on the TLS port).
    func record(_ diagnostic: ConnectionDiagnostic) {
        let kind = diagnostic.kind == .plainHTTPOnTLSPort ? "plain_http_on_tls_port" : "tls_failure"
        note(diagnostic.message, level: .warn, fields: [("event", kind), ("client", diagnostic.remoteAddress)])
    }

    /// A lifecycle message (startup, key generation, shutdown), with `details` (e.g. scenario errors)
    /// on lines of their own in text and as an array in JSON.
    func note(
        _ message: String, level: LogSettings.Level = .info, fields: [(String, String)] = [], details: [String] = []
    ) {
        guard level >= settings.minimumLevel else { return }
        console.err(noteText(message, level: level, fields: fields, details: details, time: Self.timestamp()))
    }

    /// The lines `note` writes. In text, control characters in any part are escaped, so text from a
    /// scenario or a request can never start a line that looks like another log entry.
    func noteText(
        _ message: String, level: LogSettings.Level, fields: [(String, String)], details: [String], time: String
    ) -> String {
        switch settings.format {
        case .text:
            return "\(time) \(Self.escaped(message))" + fields.map { " \($0.0)=\(Self.escaped($0.1))" }.joined()
                + details.map { "\n" + Self.escaped($0) }.joined()
        case .json:
            var object: [(String, JSONValue)] =
                [("time", .string(time)), ("level", .string(level.name)), ("msg", .string(message))]
                + fields.map { ($0.0, JSONValue.string($0.1)) }
            if !details.isEmpty { object.append(("details", .array(details.map { .string($0) }))) }
            return JSONValue.object(JSONObject(object)).serializedString()
        }
    }

    /// RFC 3339 UTC with milliseconds (`TimeText`; not libc's `gmtime_r`, whose first call reads
    /// /etc/localtime on the first request's path).
    static func timestamp() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return TimeText.rfc3339(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000))
    }
}

/// Request ids: a per-process random prefix and a counter (`3f9a1c2e-17`), unique across restarts.
final class RequestSequence: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    init() {
        let hex = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        prefix = String(repeating: "0", count: 8 - hex.count) + hex
    }

    func next() -> String {
        "\(prefix)-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
    }
}

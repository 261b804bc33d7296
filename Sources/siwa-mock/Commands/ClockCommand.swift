import JSON
import ScenarioFormat

/// `siwa-mock clock [show | advance DURATION | set TIME | freeze | unfreeze]` against a running mock.
struct ClockCommand: Command {
    static let name = "clock"
    static let abstract = "Show or move a running mock's clock."
    static let discussion: String? = """
        EXAMPLES:
          siwa-mock clock                      # show
          siwa-mock clock advance 6m           # past the 5-minute code expiry
          siwa-mock clock advance -2d          # back two days
          siwa-mock clock set 2030-01-01T00:00:00Z
          siwa-mock clock freeze | unfreeze
        Durations are the scenario files' (500ms, 90s, 6m, 2h, 1d, 1h30m; a unit is required); a leading
        - goes back. Times are RFC 3339 with uppercase T and Z.
        """
    static let positionalsSynopsis: String? = "[show | advance <duration> | set <time> | freeze | unfreeze]"
    static let options: [OptionSpec] = ControlClient.options

    var client: ControlClient
    var body: JSONValue?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        client = try ControlClient(arguments)
        let words = arguments.positionals
        switch words.first {
        case nil, "show":
            guard words.count <= 1 else { throw UsageError("'clock show' takes no value") }
            body = nil
        case "advance", "set":
            guard words.count == 2 else { throw UsageError("'clock \(words[0])' needs exactly one value") }
            // Checked here with the server's own grammar, so a typo is a usage error before any request.
            do throws(TimeSyntax.Failure) {
                if words[0] == "advance" {
                    _ = try TimeSyntax.durationMilliseconds(words[1], sign: .signed)
                } else {
                    _ = try TimeSyntax.timestamp(words[1])
                }
            } catch {
                throw UsageError("'clock \(words[0])': \(error.message)")
            }
            body = .object(JSONObject([(words[0], .string(words[1]))]))
        case "freeze", "unfreeze":
            guard words.count == 1 else { throw UsageError("'clock \(words[0])' takes no value") }
            body = .object(JSONObject([("freeze", .bool(words[0] == "freeze"))]))
        case let other?:
            throw UsageError("Unknown clock action '\(other)' (show, advance, set, freeze, unfreeze)")
        }
    }

    func run() throws -> Int32 {
        if let body { return try client.run("POST", "/mock/clock", body: body) }
        return try client.run("GET", "/mock/clock")
    }
}

import JOSE
import ScenarioFormat

/// Turns scenario text (the YAML subset or JSON) into a validated `Scenario`, reporting every problem
/// as `file:line:column: message` (unknown keys with a "did you mean" suggestion).
///
/// Stage two of the format (stage one is `ScenarioDocument.parse`). Files named by `pem_file:` are
/// read through `readFile`, because only the executable touches the file system; without a reader
/// (scenarios sent over HTTP) `pem_file:` is an error and no file is touched.
package struct ScenarioLoader {
    /// Reads a file by path (relative paths are already resolved against the scenario's directory).
    package typealias FileReader = (String) throws(FileReadError) -> String

    /// Reads `pem_file:`s; nil refuses them (a scenario from `PUT /mock/scenario` must not name host files).
    package var readFile: FileReader?
    /// Generate RSA keys for `signing_keys` entries without a PEM (70–470 ms each). `check` turns it off.
    package var generateMissingKeys: Bool
    /// Receives notices worth logging (keys being generated).
    package var note: (String) -> Void = { _ in }
    /// The requests fault rules and timeline triggers may match (`AppleEndpoints.ruleTargets`): a rule
    /// naming a path, method or form field outside them is an error. Nil: not checked (the built-in
    /// scenario, which has no rules, and the fuzzer).
    package var ruleTargets: [AppleRoute]?
    /// When set, keys without a PEM come from here (SIWACore's `SigningKeySupply`, made ahead on a
    /// background thread), never generated on the loading thread unless `keySupplyMayMake`; a scenario
    /// needing more than are ready is then refused. For `PUT /mock/scenario`.
    package var keySupply: (any SigningKeySource)?
    /// The loading thread is not an event loop (`PUT /mock/scenario` runs on a background thread): a key
    /// the supply has not made yet is generated here instead of refusing the scenario.
    package var keySupplyMayMake = false
    /// The most keys one scenario may leave to be generated (each costs 70–470 ms of CPU).
    package static let maximumGeneratedKeys = 10
    /// Parse every PEM while loading, so a bad key is reported at its position. Off only for the
    /// embedded default scenario (`loadDefaultScenario`): its keys are the published test keys, which
    /// `DefaultScenarioTests` loads from scenarios/ with the check on, and a server parses every key of
    /// its scenario again in `ScenarioKeys` anyway. Each RSA decode costs about 0.3 ms of a start-up
    /// (issue #26).
    package var checksKeyMaterial = true

    package init(readFile: FileReader? = nil, generateMissingKeys: Bool = true) {
        self.readFile = readFile
        self.generateMissingKeys = generateMissingKeys
    }

    /// A loader that looks files up by path (embedded files, tests); nil means "no such file".
    package init(files: @escaping (String) -> String?, generateMissingKeys: Bool = true) {
        self.init(
            readFile: { path throws(FileReadError) in
                guard let text = files(path) else { throw FileReadError("no such file") }
                return text
            }, generateMissingKeys: generateMissingKeys)
    }

    static let topLevelKeys = [
        "name", "seed", "issuer", "lifetime", "boolean_style", "include_false_private_email", "code_lifetime",
        "access_token_lifetime", "client_secret_max_lifetime", "client_secret_clock_skew", "default_response_mode",
        "client_authentication", "non_form_body", "refresh_id_token", "refresh_id_token_auth_time",
        "web_message",
        "clock", "teams", "clients", "app_groups", "signing_keys", "users", "transfers", "faults", "timeline",
        "notifications", "domains",
    ]

    /// Parses and loads `text`; `file` names it in diagnostics and anchors relative `pem_file:` paths.
    package func load(_ text: String, file: String) throws(ScenarioDiagnostics) -> Scenario {
        let document = try ScenarioDocument.parse(text, file: file)
        return try load(document.root, file: file)
    }

    /// Loads an already parsed document.
    package func load(_ root: Node, file: String) throws(ScenarioDiagnostics) -> Scenario {
        let context = LoadContext(root: root, file: file)
        var scenario = Scenario(name: Self.baseName(file))
        guard let top = context.mapping(root, allowed: Self.topLevelKeys) else {
            throw context.failure
        }
        readSettings(top, into: &scenario, context)
        scenario.inheritedSections = Self.inheritedSections(presentKeys: top.keys)
        let inherits = Set(scenario.inheritedSections)
        func inherited<T>(_ section: String, _ value: (Scenario) -> T) -> T? {
            inherits.contains(section) ? value(Scenario.builtIn) : nil
        }
        scenario.teams = inherited("teams", \.teams) ?? readTeams(top.optional("teams"), context)
        context.teamIDs = scenario.teams.map(\.id)
        scenario.clients = inherited("clients", \.clients) ?? readClients(top.optional("clients"), context)
        context.clientIDs = scenario.clients.map(\.id)
        scenario.appGroups = inherited("app_groups", \.appGroups) ?? readAppGroups(top.optional("app_groups"), context)
        scenario.webDomains = readWebDomains(top.optional("domains"), context)
        scenario.signingKeys = readSigningKeys(top.optional("signing_keys"), context)
        scenario.transfers = readTransfers(top.optional("transfers"), context)
        scenario.users =
            inherited("users", \.users) ?? UserList(readUsers(top.optional("users"), scenario: scenario, context))
        context.userIDs = scenario.users.map(\.id)
        scenario.faults = readFaults(top.optional("faults"), scenario: scenario, context)
        scenario.timeline = readTimeline(top.optional("timeline"), scenario: scenario, context)
        context.report(scenario.validate())
        guard context.diagnostics.isEmpty else {
            throw context.failure
        }
        return scenario
    }

    /// The sections a file leaves out that come from the built-in scenario (`scenarios/default.yaml`), so
    /// a file with only `users:` or only `faults:` signs in as the README shows: `teams`, `clients` and
    /// `app_groups` as one unit when the file names neither teams nor clients, `users` when it names
    /// none, `signing_keys` when it names none.
    static func inheritedSections(presentKeys keys: [String]) -> [String] {
        let present = Set(keys)
        var inherited: [String] = []
        if !present.contains("teams") && !present.contains("clients") {
            inherited += ["teams", "clients"]
            if !present.contains("app_groups") { inherited.append("app_groups") }
        }
        if !present.contains("users") { inherited.append("users") }
        if !present.contains("signing_keys") { inherited.append("signing_keys") }
        return inherited
    }

    /// `private-relay` for `scenarios/private-relay.yaml`.
    static func baseName(_ file: String) -> String {
        let last = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = last.lastIndex(of: "."), dot != last.startIndex { return String(last[..<dot]) }
        return last
    }

    /// Resolves `pem_file:` relative to the scenario file's directory.
    func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }

    /// A PEM from `pem:` (inline) or `pem_file:` (read), trimmed of trailing whitespace.
    func readPEM(_ map: MappingReader, path: String, _ context: LoadContext) -> String? {
        let inline = map.optional("pem")
        let fileNode = map.optional("pem_file")
        if inline != nil && fileNode != nil {
            context.report(fileNode!, "give either 'pem' or 'pem_file', not both")
            return nil
        }
        if let inline {
            return context.read(inline, at: path) { node throws(ScenarioDiagnostic) in try node.string() }.map(
                Self.trimmed)
        }
        guard let fileNode,
            let name = context.read(fileNode, at: path, { node throws(ScenarioDiagnostic) in try node.string() })
        else { return nil }
        guard let readFile else {
            context.report(fileNode, Self.filesRefused)
            return nil
        }
        let resolved = resolve(name, relativeTo: context.file)
        do {
            return Self.trimmed(try readFile(resolved))
        } catch {
            context.report(fileNode, "cannot read PEM file '\(resolved)': \(error.reason)")
            return nil
        }
    }

    /// Why `pem_file:` fails in a scenario loaded without a file reader.
    static let filesRefused =
        "'pem_file' is not read in a scenario sent over HTTP (it would expose the server's files); "
        + "give the key inline with 'pem: |', or load the file with --scenario"

    /// `text` without trailing newlines and spaces (PEMs as stored and compared).
    package static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, last == "\n" || last == "\r" || last == " " { text = text.dropLast() }
        return String(text)
    }

    /// Reads an enum-like scalar, reporting the allowed spellings.
    func readChoice<T>(_ node: Node?, at path: String?, _ choices: [(String, T)], _ context: LoadContext) -> T? {
        guard let node,
            let text = context.read(node, at: path, { node throws(ScenarioDiagnostic) in try node.string() })
        else { return nil }
        if let match = choices.first(where: { $0.0 == text }) { return match.1 }
        let names = choices.map { "'\($0.0)'" }.joined(separator: ", ")
        context.report(node, "expected one of \(names), found '\(text)'")
        return nil
    }
}

extension ScenarioLoader {
    /// The embedded `scenarios/default.yaml` loaded (equal to `Scenario.builtIn`; a test checks it).
    package static func loadDefaultScenario() throws(ScenarioDiagnostics) -> Scenario {
        var loader = ScenarioLoader(files: { defaultScenarioFiles[$0] })
        loader.checksKeyMaterial = false
        return try loader.load(defaultScenarioText, file: "default.yaml")
    }
}

/// Why a `pem_file:` could not be read (`not a regular file`, `No such file or directory`).
package struct FileReadError: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}

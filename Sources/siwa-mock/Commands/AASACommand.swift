import HTTP
import SIWACore
import ScenarioModel
import TLS

/// `siwa-mock aasa check <file-or-url>`: checks an `apple-app-site-association` file the way Apple's CDN
/// does before devices offer a domain's saved passwords to an app (`AppSiteAssociation`).
struct AASACommand: Command {
    static let name = "aasa"
    static let abstract = "Check an apple-app-site-association file for web credentials, as Apple's CDN would."
    static let discussion: String? = """
        `aasa check FILE` checks the file; `aasa check https://HOST/` fetches HOST's
        /.well-known/apple-app-site-association (a URL with a path is fetched as given) without following
        redirects, verifying the certificate against the system's CAs and --ca, and also judges the
        exchange: HTTPS, status 200, Content-Type application/json, at most 128 KB. Then: valid JSON, a
        `webcredentials` object whose `apps` are TEAMID.bundle.id entries of the scenario's teams and native
        apps (--scenario; the built-in one by default). Every problem is printed with its location
        (file:line:col, or the part of the HTTP exchange). Exit status 0 when the file lists at least one of
        the scenario's apps and has no problem, 1 otherwise.

        EXAMPLE (a backend in a test whose certificate the mock's local CA issued):
          siwa-mock ca > ca.pem && siwa-mock aasa check https://127.0.0.1:8443 --ca ca.pem
        """
    static let positionalsSynopsis: String? = "check <file-or-url>"
    static let scenario = Option.optional(
        "scenario", "file", help: "Scenario whose teams and native apps the file should list.",
        shownDefault: "the built-in scenario", parser: .nonEmpty)
    static let ca = Option.optional(
        "ca", "file", help: "A CA certificate (PEM) to trust besides the system's, e.g. the mock's (`siwa-mock ca`).",
        parser: .nonEmpty)
    static let options: [OptionSpec] = [scenario.spec, ca.spec]

    var target: String
    var scenarioFile: String?
    var caFile: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let words = arguments.positionals
        guard words.first == "check" else {
            throw UsageError("Unknown aasa action '\(words.first ?? "")' (check)")
        }
        guard words.count == 2 else { throw UsageError("'aasa check' needs exactly one <file-or-url>") }
        target = words[1]
        scenarioFile = try arguments.read(Self.scenario)
        caFile = try arguments.read(Self.ca)
    }

    func run() throws -> Int32 {
        let scenario: Scenario
        if let scenarioFile {
            do {
                scenario = try ScenarioFile.load(scenarioFile, generateMissingKeys: false)
            } catch {
                throw RuntimeError("cannot load the scenario:\n" + error.lines.joined(separator: "\n"))
            }
        } else {
            scenario = .builtIn
        }
        var problems: [AppSiteAssociation.Problem] = []
        let bytes: [UInt8]
        let source: String
        let lowered = target.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let url = Self.fileURL(target)
            var trusted: String?
            if let caFile { trusted = try FileSystem.readText(caFile, limit: 1024 * 1024) }
            let tls: TLSClientContext
            do {
                tls = try TLSClientContext(trustedCertificatesPEM: trusted)
            } catch {
                throw RuntimeError("--ca \(caFile ?? ""): \(error.message)")
            }
            let response: HTTPClientResponse
            do {
                response = try HTTPClient.send(
                    HTTPClientRequest(), to: url, timeoutMilliseconds: 10_000,
                    maximumBodyBytes: AppSiteAssociation.maximumBytes + 1, tls: tls)
            } catch {
                throw RuntimeError("cannot fetch \(url): \(error.message)")
            }
            problems += AppSiteAssociation.checkExchange(
                url: url, status: response.status, contentType: response.headers.contentType,
                location: response.headers.location, bodyBytes: response.body.count)
            bytes = response.body
            source = url
            if response.status != 200 { return report(problems, apps: [], scenario: scenario) }
        } else {
            bytes = try FileSystem.read(target, limit: 4 * 1024 * 1024)
            source = target
        }
        let checked = AppSiteAssociation.check(
            bytes, source: source, teamIDs: scenario.teams.map(\.id), bundleIDs: scenario.nativeAppsByTeam)
        return report(problems + checked.problems, apps: checked.webCredentialApps, scenario: scenario)
    }

    private func report(_ problems: [AppSiteAssociation.Problem], apps: [String], scenario: Scenario) -> Int32 {
        let console = Console()
        for problem in problems { console.err(problem.description) }
        let known = apps.filter { app in
            scenario.nativeAppsByTeam.contains { team, bundles in bundles.contains { "\(team).\($0)" == app } }
        }
        guard problems.isEmpty, !known.isEmpty else {
            console.err("invalid: \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            return 1
        }
        console.out("ok: webcredentials lists \(known.joined(separator: ", "))")
        return 0
    }

    /// A bare origin means the file at its well-known path.
    static func fileURL(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url }
        let afterScheme = url[schemeEnd.upperBound...]
        let path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        if path.isEmpty || path == "/" {
            return url[..<schemeEnd.upperBound] + afterScheme.prefix { $0 != "/" } + AppSiteAssociation.path
        }
        return url
    }
}

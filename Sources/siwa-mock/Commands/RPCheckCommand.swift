import RPCheck

/// `siwa-mock rp-check`: plays the hostile Apple against a backend through a running mock
/// (docs/rp-check.md) and reports which broken tokens the backend accepted.
struct RPCheckCommand: Command {
    static let name = "rp-check"
    static let abstract = "Check that a backend refuses every tampered token and notification (via a running mock)."
    static let discussion: String? = """
        A correct token runs first as the control: a backend that refuses it is reported as "control
        failed" (exit 2), never as passing. Exit 0: every case refused; 1: a case was accepted.
        EXAMPLE:
          siwa-mock rp-check --native-url http://127.0.0.1:9000/apple/native \\
            --notification-url http://127.0.0.1:9000/apple/notifications --junit rp-check.xml
        """
    static let nativeURL = Option.optional(
        "native-url", "url", help: "Backend endpoint a native app POSTs its identity token and code to.",
        parser: .httpURL)
    static let nativeFormat = Option(
        "native-format", "form|json", help: "Body shape of the native POST.", default: false, shownDefault: "form",
        parser: .choice([("form", false), ("json", true)]))
    static let tokenField = Option(
        "token-field", "name", help: "Field carrying the identity token.", default: "id_token", parser: .nonEmpty)
    static let codeField = Option(
        "code-field", "name", help: "Field carrying the authorization code.", default: "code", parser: .nonEmpty)
    static let nonceField = Option(
        "nonce-field", "name", help: "Field carrying the nonce the app used ('' for none).", default: "nonce",
        parser: .text)
    static let client = Option(
        "client", "bundle-id", help: "The native app's bundle ID.", default: "com.example.app", parser: .nonEmpty)
    static let user = Option("user", "user", help: "Scenario user who signs in.", default: "alice", parser: .nonEmpty)
    static let webStart = Option.optional(
        "web-start", "url",
        help: "Backend URL that starts a web sign-in (redirects to the mock's /auth/authorize, sets its session).",
        parser: .httpURL)
    static let webClient = Option(
        "web-client", "services-id", help: "The web backend's Services ID.", default: "com.example.web",
        parser: .nonEmpty)
    static let notificationURL = Option.optional(
        "notification-url", "url", help: "Backend endpoint for server-to-server notifications.", parser: .httpURL)
    static let appGroup = Option(
        "app-group", "id", help: "App group whose notification endpoint is pointed at the backend.",
        default: "com.example.app", parser: .nonEmpty)
    static let acceptStatus = Option(
        "accept-status", "2xx|3xx|4xx|any", help: "Status class of an accepting answer.", default: 2,
        shownDefault: "2xx", parser: .choice([("2xx", 2), ("3xx", 3), ("4xx", 4), ("any", 0)]))
    static let acceptLocation = Option.optional(
        "accept-location", "regex", help: "Pattern the Location of an accepting answer matches.", parser: .nonEmpty)
    static let acceptBody = Option.optional(
        "accept-body", "regex", help: "Pattern the body of an accepting answer matches.", parser: .nonEmpty)
    static let probe = Option.optional(
        "probe", "url", help: "URL fetched with the answer's cookies that shows who is signed in.", parser: .httpURL)
    static let probeBody = Option.optional(
        "probe-body", "regex", help: "Pattern the probe's body matches when signed in.", parser: .nonEmpty)
    static let verifiedPattern = Option.optional(
        "verified-pattern", "regex", help: "Pattern in the answer showing the email was taken as verified.",
        parser: .nonEmpty)
    static let privatePattern = Option.optional(
        "private-pattern", "regex", help: "Pattern in the answer showing the email was taken as private.",
        parser: .nonEmpty)
    static let junit = Option.optional("junit", "file", help: "Also write JUnit XML to this file.", parser: .nonEmpty)
    static let options: [OptionSpec] =
        [
            nativeURL.spec, nativeFormat.spec, tokenField.spec, codeField.spec, nonceField.spec, client.spec,
            user.spec, webStart.spec, webClient.spec, notificationURL.spec, appGroup.spec, acceptStatus.spec,
            acceptLocation.spec, acceptBody.spec,
            probe.spec, probeBody.spec, verifiedPattern.spec, privatePattern.spec, junit.spec,
        ] + ControlClient.options

    var runner: RPCheckRunner
    var junitPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let control = try ControlClient(arguments)
        let nativeURL = try arguments.read(Self.nativeURL)
        let notificationURL = try arguments.read(Self.notificationURL)
        let webStart = try arguments.read(Self.webStart)
        guard nativeURL != nil || notificationURL != nil || webStart != nil else {
            throw UsageError("give --native-url, --web-start and/or --notification-url: what to check")
        }
        let nonceField = try arguments.read(Self.nonceField)
        let status = try arguments.read(Self.acceptStatus)
        let acceptance = Acceptance(
            statusClass: status == 0 ? nil : status, location: try arguments.read(Self.acceptLocation),
            body: try arguments.read(Self.acceptBody), probeURL: try arguments.read(Self.probe),
            probeBody: try arguments.read(Self.probeBody))
        do throws(RPCheckError) {
            try acceptance.validate()
        } catch {
            throw UsageError(error.description)
        }
        runner = RPCheckRunner(
            mock: MockControl(baseURL: control.baseURL, adminToken: control.adminToken),
            user: try arguments.read(Self.user),
            native: try nativeURL.map { url throws(UsageError) in
                RPCheckRunner.NativeTarget(
                    url: url, json: try arguments.read(Self.nativeFormat),
                    tokenField: try arguments.read(Self.tokenField),
                    codeField: try arguments.read(Self.codeField), nonceField: nonceField.isEmpty ? nil : nonceField,
                    client: try arguments.read(Self.client))
            },
            web: try webStart.map { url throws(UsageError) in
                RPCheckRunner.WebTarget(startURL: url, client: try arguments.read(Self.webClient))
            },
            notifications: try notificationURL.map { url throws(UsageError) in
                RPCheckRunner.NotificationTarget(url: url, appGroup: try arguments.read(Self.appGroup))
            },
            acceptance: acceptance, verifiedPattern: try arguments.read(Self.verifiedPattern),
            privatePattern: try arguments.read(Self.privatePattern))
        junitPath = try arguments.read(Self.junit)
    }

    func run() throws -> Int32 {
        let report: RPCheckReport
        do {
            report = RPCheckReport(results: try runner.run())
        } catch {
            throw RuntimeError(error.description)
        }
        Console().out(report.table, terminator: "")
        if let junitPath { try FileSystem.write(report.junitXML, to: junitPath, mode: 0o644, exclusive: false) }
        return report.exitStatus
    }
}

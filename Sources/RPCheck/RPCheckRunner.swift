import HTTP
import JSON
import ScenarioModel

/// Plays the hostile Apple against a backend (docs/rp-check.md): for each surface, a correct token first
/// (the control), then every case of the catalogue, each made by a running mock through a one-shot
/// `tamper:` fault rule, handed to the backend the way Apple or the app would, and judged by the user's
/// `Acceptance`. A backend that refuses the control gets "control failed" on every case, never a pass.
package struct RPCheckRunner: Sendable {
    /// A native app's backend endpoint: where the app POSTs the identity token and code, in which shape.
    package struct NativeTarget: Sendable {
        package var url: String
        package var json: Bool
        package var tokenField: String
        package var codeField: String
        /// The field carrying the nonce the app used (nil: none is sent).
        package var nonceField: String?
        package var client: String

        package init(
            url: String, json: Bool = false, tokenField: String = "id_token", codeField: String = "code",
            nonceField: String? = "nonce", client: String = "com.example.app"
        ) {
            self.url = url
            self.json = json
            self.tokenField = tokenField
            self.codeField = codeField
            self.nonceField = nonceField
            self.client = client
        }
    }

    /// Where the mock delivers notifications (the app group's endpoint is set to it first).
    package struct NotificationTarget: Sendable {
        package var url: String
        package var appGroup: String

        package init(url: String, appGroup: String = "com.example.app") {
            self.url = url
            self.appGroup = appGroup
        }
    }

    package var mock: MockControl
    package var user: String
    package var native: NativeTarget?
    package var web: WebTarget?
    package var notifications: NotificationTarget?
    package var acceptance: Acceptance
    /// A body (or probe) pattern showing the backend took the email as verified / as private.
    package var verifiedPattern: String?
    package var privatePattern: String?
    /// Sends one request to a URL (the mock, the backend, the probe).
    package var send: @Sendable (HTTPClientRequest, String) throws -> HTTPClientResponse

    package init(
        mock: MockControl, user: String = "alice", native: NativeTarget? = nil, web: WebTarget? = nil,
        notifications: NotificationTarget? = nil, acceptance: Acceptance = Acceptance(),
        verifiedPattern: String? = nil, privatePattern: String? = nil,
        send: @escaping @Sendable (HTTPClientRequest, String) throws -> HTTPClientResponse = RPCheckRunner.network
    ) {
        self.mock = mock
        self.user = user
        self.native = native
        self.web = web
        self.notifications = notifications
        self.acceptance = acceptance
        self.verifiedPattern = verifiedPattern
        self.privatePattern = privatePattern
        self.send = send
    }

    /// The real network, 10 s per request.
    package static let network: @Sendable (HTTPClientRequest, String) throws -> HTTPClientResponse = { request, url in
        try HTTPClient.send(request, to: url, timeoutMilliseconds: 10_000, maximumBodyBytes: 1 << 20)
    }

    /// Every configured surface, control first. - Throws: when the mock itself cannot be driven.
    package func run() throws(RPCheckError) -> [RPCheckResult] {
        var results: [RPCheckResult] = []
        if let native { results += try runNative(native) }
        if let web { results += try runWeb(web) }
        if let notifications { results += try runNotifications(notifications) }
        return results
    }

    /// One surface: the control (`verdict(nil)`), then every case of `target`, each judged only when the
    /// control was accepted.
    func surface(
        _ name: String, _ target: TamperCase.Target, controlRisk: String, controlFix: String,
        verdict: (TamperCase?) throws(RPCheckError) -> (verdict: RPCheckVerdict, detail: String)
    ) throws(RPCheckError) -> [RPCheckResult] {
        let control = try verdict(nil)
        var results = [
            RPCheckResult(
                surface: name, name: "control", verdict: Self.controlVerdict(control.verdict), risk: controlRisk,
                fix: controlFix, detail: control.detail)
        ]
        for entry in RPCheckCase.cases(for: target) {
            let outcome = try verdict(entry.tamper)
            results.append(
                RPCheckResult(
                    surface: name, name: entry.tamper.name,
                    verdict: Self.judged(outcome.verdict, control: control.verdict), risk: entry.risk, fix: entry.fix,
                    detail: outcome.detail))
        }
        return results
    }

    /// A case's verdict given the control's: judged only when the correct token was accepted.
    static func judged(_ verdict: RPCheckVerdict, control: RPCheckVerdict) -> RPCheckVerdict {
        switch control {
        case .accepted: verdict
        case .error: .error("not judged: the control could not run")
        default: .controlFailed
        }
    }

    /// The control row's verdict: accepted is the expected answer, a refusal is "control failed".
    static func controlVerdict(_ verdict: RPCheckVerdict) -> RPCheckVerdict {
        switch verdict {
        case .accepted, .error: verdict
        default: .controlFailed
        }
    }
}

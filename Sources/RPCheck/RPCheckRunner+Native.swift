import HTTP
import JSON
import ScenarioModel

extension RPCheckRunner {
    /// The native surface: per case a credential from `POST /mock/credentials` (tampered by a one-shot
    /// rule for the app), POSTed to the backend as the app would, with the nonce the app used.
    func runNative(_ target: NativeTarget) throws(RPCheckError) -> [RPCheckResult] {
        try surface(
            "native", .idToken, controlRisk: "a correct token must be accepted, or no refusal below means anything",
            controlFix: "check the acceptance options and the backend's key/issuer/audience settings"
        ) { tamper throws(RPCheckError) in try nativeVerdict(tamper, target) }
    }

    /// One credential handed to the backend and judged.
    func nativeVerdict(_ tamper: TamperCase?, _ target: NativeTarget) throws(RPCheckError) -> (
        verdict: RPCheckVerdict, detail: String
    ) {
        let nonce = "rp-check-\(UInt64.random(in: 1...UInt64.max))"
        let credential = try mock.withTampering(tamper?.name, client: target.client, send: send) {
            () throws(RPCheckError) in
            try mock.call(
                "POST", "/mock/credentials",
                .object(
                    JSONObject([
                        ("client_id", .string(target.client)), ("user", .string(user)), ("nonce", .string(nonce)),
                    ])), send: send)
        }
        guard let token = credential["identityToken"]?.stringValue,
            let code = credential["authorizationCode"]?.stringValue
        else { throw RPCheckError("the mock's credential has no identityToken: \(credential.serializedString())") }
        var fields = [(target.tokenField, token), (target.codeField, code)]
        if let field = target.nonceField { fields.append((field, nonce)) }
        var headers = HTTPHeaders()
        let body: [UInt8]
        if target.json {
            headers.add("Content-Type", "application/json")
            body = JSONValue.object(JSONObject(fields.map { ($0.0, .string($0.1)) })).serialized()
        } else {
            headers.add("Content-Type", "application/x-www-form-urlencoded")
            body = Array(URLEncodedForm.encode(fields).utf8)
        }
        return judge(HTTPClientRequest(method: "POST", headers: headers, body: body), to: target.url, tamper: tamper)
    }

    /// Sends the backend request and judges its answer (and the probe, with the answer's cookies).
    func judge(_ request: HTTPClientRequest, to url: String, tamper: TamperCase?, cookies sent: String = "") -> (
        verdict: RPCheckVerdict, detail: String
    ) {
        let response: HTTPClientResponse
        do {
            response = try send(request, url)
        } catch {
            return (.error("backend unreachable: \(error)"), "no answer")
        }
        let cookies = [sent, Self.cookies(of: response)].filter { !$0.isEmpty }.joined(separator: "; ")
        let probe: (String) throws -> HTTPClientResponse = { probeURL in
            var headers = HTTPHeaders()
            if !cookies.isEmpty { headers.add("Cookie", cookies) }
            return try send(HTTPClientRequest(method: "GET", headers: headers), probeURL)
        }
        let detail = "HTTP \(response.status)"
        let accepted: Bool
        let shownText: String
        do {
            (accepted, shownText) = try acceptance.judge(response, probe: probe)
        } catch {
            return (.error("probe failed: \(error)"), detail)
        }
        // A claim case is a valid sign-in: the defect is how the claim is read, which the backend shows.
        let pattern: String? =
            switch tamper {
            case .emailVerifiedFalseString?: verifiedPattern
            case .privateEmailFalseString?: privatePattern
            default: nil
            }
        if tamper == .emailVerifiedFalseString || tamper == .privateEmailFalseString {
            guard let pattern else {
                return (.skipped("needs --verified-pattern / --private-pattern"), detail)
            }
            let shown = Acceptance.matches(shownText, pattern)
            return (accepted && shown ? .accepted : .rejected, detail)
        }
        return (accepted ? .accepted : .rejected, detail)
    }

    /// `name=value; …` of the answer's `Set-Cookie` headers (attributes dropped).
    static func cookies(of response: HTTPClientResponse) -> String {
        response.headers.values(for: "Set-Cookie").compactMap { $0.split(separator: ";").first }
            .map { String($0.drop { $0 == " " }) }.joined(separator: "; ")
    }
}

import HTTP
import JSON
import Locking
import RPCheck
import Testing

/// The runner's judgement against a scripted mock and backend: the control decides whether anything
/// is judged, and the report's table, JUnit XML and exit status say the same thing.
@Suite struct RPCheckRunnerTests {
    /// A mock answering the control calls the runner makes, and a backend answering `status` to every
    /// native POST (remembering the tamper rule in force when the credential was made).
    static func runner(backend status: @escaping @Sendable (String?) -> Int) -> RPCheckRunner {
        let rule = Lock<String?>(nil)
        let tokens = Lock<[String: String?]>([:])
        return RPCheckRunner(
            mock: MockControl(baseURL: "http://mock.test"),
            native: .init(url: "http://backend.test/native"),
            send: { request, url in
                switch (request.method, url) {
                case ("POST", "http://mock.test/mock/faults"):
                    let body = try JSONValue.parse(request.body)
                    rule.withLock { $0 = body["tamper"]?.stringValue }
                    return HTTPClientResponse(status: 201, body: Array("{}".utf8))
                case ("DELETE", "http://mock.test/mock/faults/rp-check"):
                    rule.withLock { $0 = nil }
                    return HTTPClientResponse(status: 200, body: Array("{}".utf8))
                case ("POST", "http://mock.test/mock/credentials"):
                    let token = "token-\(tokens.withLock { $0.count })"
                    tokens.withLock { $0[token] = rule.withLock { $0 } }
                    let body: JSONValue = ["identityToken": .string(token), "authorizationCode": "c"]
                    return HTTPClientResponse(status: 200, body: body.serialized())
                case ("POST", "http://backend.test/native"):
                    let form = try URLEncodedForm.decode(request.body)
                    let token = form.first { $0.name == "id_token" }?.value ?? ""
                    let tamper = tokens.withLock { $0[token] ?? nil }
                    return HTTPClientResponse(status: status(tamper))
                default:
                    return HTTPClientResponse(status: 404)
                }
            })
    }

    @Test func aBackendThatRefusesEverythingIsReportedAsControlFailedNeverAsPassing() throws {
        let report = RPCheckReport(results: try Self.runner(backend: { _ in 401 }).run())
        #expect(report.results.first?.name == "control" && report.results.first?.verdict == .controlFailed)
        #expect(report.results.dropFirst().allSatisfy { $0.verdict == .controlFailed })
        #expect(report.exitStatus == 2)
        #expect(report.table.contains("control failed: the backend refused a correct token"))
        #expect(!report.junitXML.contains("<failure") && report.junitXML.contains("type=\"control\""))
    }

    @Test func aBackendThatRefusesEveryCasePasses() throws {
        let report = RPCheckReport(results: try Self.runner(backend: { $0 == nil ? 200 : 401 }).run())
        #expect(report.results.first?.verdict == .accepted)
        let verdicts = report.results.dropFirst().map(\.verdict)
        #expect(verdicts.filter { $0 == .rejected }.count == verdicts.count - 2, "all but the two claim cases")
        #expect(report.exitStatus == 0)
    }

    @Test func exactlyTheAcceptedCasesFail() throws {
        let accepted = ["oidcc-client-test-invalid-aud", "siwa-aud-other-client-same-team"]
        let report = RPCheckReport(
            results: try Self.runner(backend: { $0 == nil || accepted.contains($0!) ? 200 : 401 }).run())
        #expect(
            report.results.filter { $0.verdict == .accepted && $0.name != "control" }.map(\.name).sorted()
                == accepted.sorted())
        #expect(report.exitStatus == 1)
        #expect(report.junitXML.ranges(of: "<failure ").count == 2)
        #expect(report.table.contains("fix:  audience=<your client_id>"))
    }
}

/// The mock's form_post page read as a browser reads it, escapes undone.
@Suite struct FormPostPageTests {
    @Test func actionAndHiddenFieldsWithTheirEscapesUndone() throws {
        let html = """
            <form method="post" action="https://app.example/cb?a=1&amp;b=2">
            <input type="hidden" name="code" value="c.1">
            <input type="hidden" name="user" value="{&quot;name&quot;:&quot;O&#39;Neil &lt;x&gt;&quot;}">
            <button type="submit">Continue</button>
            </form>
            """
        let page = try #require(FormPostPage(html: html))
        #expect(page.action == "https://app.example/cb?a=1&b=2")
        #expect(page.fields.map(\.0) == ["code", "user"])
        #expect(page.fields.map(\.1) == ["c.1", #"{"name":"O'Neil <x>"}"#])
        #expect(FormPostPage(html: "<p>no form</p>") == nil)
    }
}

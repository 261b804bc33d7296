import Foundation
import HTTP
import JSON
import Testing

/// What a new user meets in the first hour (issue #12), through the built binary: a scenario with only
/// `users:` signs in, `check` says what a file defines and what it borrows, and `verify` judges `exp`
/// and `iat` by the mock's clock.
@Suite struct FirstHourTests {
    let serve = ServeTests()
    let control = ControlEndToEndTests()

    func scenarioFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("first-hour-\(UUID().uuidString).yaml")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Authorizes `user` headlessly on the web client and redeems the code.
    func signIn(_ mock: MockProcess, as user: String) throws -> HTTPClientResponse {
        let redirect = URLEncodedForm.encodeComponent(ServeTests.redirect)
        let authorize = try serve.get(
            mock,
            "/auth/authorize?client_id=com.example.web&redirect_uri=\(redirect)&response_type=code&login_hint=\(user)")
        let location = try #require(authorize.headers["Location"], "authorize answered \(authorize.status)")
        let query = try URLEncodedForm.decode(Array(location.split(separator: "?", maxSplits: 1)[1].utf8))
        let code = try #require(query.first { $0.name == "code" }?.value)
        return try serve.post(
            mock, "/auth/token",
            form: [
                ("grant_type", "authorization_code"), ("client_id", "com.example.web"),
                ("client_secret", try serve.clientSecret()), ("code", code), ("redirect_uri", ServeTests.redirect),
            ])
    }

    @Test func aScenarioWithOnlyUsersSignsIn() throws {
        let file = try scenarioFile("users:\n  - id: dave\n    email: dave@example.com\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let mock = try MockProcess(["--scenario", file])
        let token = try signIn(mock, as: "dave")
        #expect(token.status == 200, "\(token.bodyText)")
        #expect(try JSONValue.parse(token.body)["id_token"]?.stringValue != nil)
    }

    @Test func checkPrintsWhatTheFileDefinesAndWhatIsBuiltIn() throws {
        let file = try scenarioFile("users:\n  - id: dave\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try MockProcess.run(["check", file])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "\(file): ok: defines 1 user (dave); built-in: team ABCDE12345, clients com.example.app, "
                + "com.example.web, signing keys Aj3F8kLq2X, Pb7Yt1ZcQ9, Tq8Nv3WcLm\n")
    }

    @Test func checkRefusesARuleThatCouldNeverFire() throws {
        let file = try scenarioFile("faults:\n  - match: POST /auth/tokne\n    status: 503\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try MockProcess.run(["check", file])
        #expect(run.status == 1)
        #expect(
            run.stderr == "\(file):2:12: no Apple endpoint has the path '/auth/tokne' (did you mean '/auth/token'?)\n")
    }

    @Test func theControlAPIRefusesAFaultThatCouldNeverFire() throws {
        let mock = try MockProcess()
        let refused = try control.call(
            mock, "POST", "/mock/faults", ["match": "POST /auth/token", "form": ["grant_typ": "x"], "status": 503])
        #expect(refused.status == 400)
        #expect(
            refused.bodyText.contains("POST /auth/token never reads a field 'grant_typ' (did you mean 'grant_type'?)"))
        let faults = try control.json(try control.call(mock, "GET", "/mock/faults"))
        #expect(faults["faults"]?.arrayValue?.isEmpty == true, "nothing half-applied")
    }

    @Test func verifyJudgesExpiryByTheMocksClock() throws {
        let mock = try MockProcess()
        let credential = try control.json(
            try control.call(mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"]))
        let token = try #require(credential["identityToken"]?.stringValue)
        let fresh = try MockProcess.run(["verify", "--url", mock.baseURL, "--audience", "com.example.app", token])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("clock: the mock's clock, "))

        // Two days on the mock's clock: the one-day id_token has expired there, though not by the wall clock.
        #expect(try control.call(mock, "POST", "/mock/clock", ["advance": "2d"]).status == 200)
        let expired = try MockProcess.run(["verify", "--url", mock.baseURL, "--audience", "com.example.app", token])
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("invalid: expired at "))

        // A token minted now carries the mock's time: valid by the mock's clock, though its iat is two
        // days in this machine's future.
        let later = try control.json(
            try control.call(mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"]))
        let laterToken = try #require(later["identityToken"]?.stringValue)
        let judged = try MockProcess.run(["verify", "--url", mock.baseURL, "--audience", "com.example.app", laterToken])
        #expect(judged.status == 0, "\(judged.stderr)")
    }

    @Test func verifyAgainstAURLWithoutAMockClockUsesTheWallClockAndSaysSo() throws {
        let mock = try MockProcess(["--admin-token", "T"])
        let credential = try control.json(
            try control.call(
                mock, "POST", "/mock/credentials", ["client_id": "com.example.app", "user": "alice"], token: "T"))
        let token = try #require(credential["identityToken"]?.stringValue)
        let run = try MockProcess.run(["verify", "--url", mock.baseURL, token])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("clock: this machine's clock (\(mock.baseURL)/mock/clock needs --admin-token)"))
        let withToken = try MockProcess.run(["verify", "--url", mock.baseURL, "--admin-token", "T", token])
        #expect(withToken.stdout.contains("clock: the mock's clock, "))
    }
}

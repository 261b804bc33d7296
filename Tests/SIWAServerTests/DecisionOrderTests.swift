import Foundation
import HTTP
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

/// Runs every row of the "Decision order" table in docs/fidelity.md against the mock, so the published
/// table and the behaviour cannot drift apart. `any` expands to every value of its column; each refused
/// request is followed by a check that it consumed nothing (the code or token still works).
@Suite struct DecisionOrderTests {
    enum Endpoint: String { case token, revoke }
    enum Grant: String, CaseIterable {
        case codeUnknown = "code unknown"
        case codeExpired = "code expired"
        case codeUsed = "code used"
        case codeValid = "code valid"
        case refreshUnknown = "refresh unknown"
        case refreshRevoked = "refresh revoked"
        case refreshValid = "refresh valid"
        case tokenUnknown = "token unknown"
        case tokenExpired = "token expired"
        case tokenRevoked = "token revoked"
        case tokenValid = "token valid"

        var isValid: Bool { [.codeValid, .refreshValid, .tokenValid].contains(self) }
        var isCode: Bool { rawValue.hasPrefix("code") }
        var endpoint: Endpoint { rawValue.hasPrefix("token") ? .revoke : .token }
    }
    enum Client: String, CaseIterable {
        case unknown
        case secretBad = "secret bad"
        case secretValid = "secret valid"
    }
    enum GrantBinding: String, CaseIterable {
        case match
        case clientID = "client_id mismatch"
        case redirectURI = "redirect_uri mismatch"
    }

    struct Case: Hashable, CustomStringConvertible {
        var grant: Grant
        var client: Client
        /// Nil for an unknown client (nothing to compare the grant with).
        var binding: GrantBinding?
        var description: String { "\(grant.rawValue) × \(client.rawValue) × \(binding?.rawValue ?? "—")" }
    }

    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var error: String?
        var errorDescription: String?
        var description: String { "\(status) \(error ?? "") \(errorDescription.map { "\"\($0)\"" } ?? "")" }
    }

    /// The table's rows, `any` expanded: case → expected answer and the row's text.
    static func expectations() throws -> [Case: (answer: Answer, row: String)] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/fidelity.md").path
        let text = try #require(FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) })
        let section = try #require(text.components(separatedBy: "\n## Decision order\n").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        var table: [Case: (answer: Answer, row: String)] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| token |") || line.hasPrefix("| revoke |") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let endpoint = try #require(Endpoint(rawValue: cells[0]), "\(line)")
            let grant = try #require(Grant(rawValue: cells[1]), "unknown grant in: \(line)")
            #expect(grant.endpoint == endpoint, "\(line)")
            let clients = cells[2] == "any" ? Client.allCases : [try #require(Client(rawValue: cells[2]), "\(line)")]
            let answer = try parseAnswer(cells[4], line: String(line))
            for client in clients {
                var bindings: [GrantBinding?]
                if client == .unknown {
                    #expect(["—", "any"].contains(cells[3]), "an unknown client has no binding: \(line)")
                    bindings = [nil]
                } else if cells[3] == "any" {
                    bindings = GrantBinding.allCases.filter { grant.isCode || $0 != .redirectURI }
                } else {
                    let binding: GrantBinding = try #require(GrantBinding(rawValue: cells[3]), "\(line)")
                    bindings = [binding]
                }
                for binding in bindings {
                    let key = Case(grant: grant, client: client, binding: binding)
                    #expect(table[key] == nil, "two rows cover \(key)")
                    table[key] = (answer, String(line))
                }
            }
        }
        return table
    }

    /// `200`, `400 invalid_client`, or `400 invalid_grant "description"`.
    static func parseAnswer(_ cell: String, line: String) throws -> Answer {
        let parts = cell.split(separator: " ", maxSplits: 2).map(String.init)
        let status = try #require(Int(parts[0]), "status in: \(line)")
        guard parts.count > 1 else { return Answer(status: status) }
        var description: String?
        if parts.count > 2 {
            #expect(parts[2].hasPrefix("\"") && parts[2].hasSuffix("\""), "quoted description in: \(line)")
            description = String(parts[2].dropFirst().dropLast())
        }
        return Answer(status: status, error: parts[1], errorDescription: description)
    }

    /// Every combination the endpoints can see is in the table exactly once.
    @Test func tableCoversEveryCombination() throws {
        let table = try Self.expectations()
        var all: Set<Case> = []
        for grant in Grant.allCases {
            for client in Client.allCases {
                if client == .unknown {
                    all.insert(Case(grant: grant, client: client, binding: nil))
                    continue
                }
                for binding in GrantBinding.allCases where grant.isCode || binding != .redirectURI {
                    all.insert(Case(grant: grant, client: client, binding: binding))
                }
            }
        }
        #expect(
            Set(table.keys) == all,
            "missing: \(all.subtracting(table.keys)), extra: \(Set(table.keys).subtracting(all))")
        // Codes: 4 states × (unknown client + 2 clients × 3 bindings); refresh: 3 × 5; revoke: 4 × 5.
        #expect(table.count == 4 * 7 + 3 * 5 + 4 * 5)
    }

    @Test(arguments: Transport.allCases)
    func everyRowHolds(_ transport: Transport) throws {
        let table = try Self.expectations()
        try EndpointHarness.run(transport) { h in
            for (key, expected) in table.sorted(by: { $0.key.description < $1.key.description }) {
                try check(key, expected.answer, row: expected.row, h)
            }
        }
    }

    /// Sets up the grant, sends the request the case describes, compares the answer, and checks that a
    /// refused request left a valid grant usable.
    func check(_ key: Case, _ expected: Answer, row: String, _ h: EndpointHarness) throws {
        let clientID =
            key.client == .unknown
            ? "com.unknown.client" : key.binding == .clientID ? TestKeys.nativeClientID : TestKeys.webClientID
        let redirectURI = key.binding == .redirectURI ? "https://evil.example.com/cb" : TestKeys.redirectURI
        let now = h.clock.nowSeconds
        let secret =
            key.client == .secretBad
            ? try h.secrets.make(clientID: clientID, now: now - 7200, lifetime: 3600)
            : try h.secrets.make(clientID: clientID, now: now)
        func newCode() throws -> String {
            try #require(try h.authorize(responseType: "code", scope: nil, responseMode: "query")[field: "code"])
        }
        func newRefreshToken() throws -> (refresh: String, access: String) {
            let json = try #require(try h.redeem(try newCode()).json)
            return (
                try #require(json["refresh_token"]?.stringValue), try #require(json["access_token"]?.stringValue)
            )
        }

        var presented = ""
        var stillUsable: (() throws -> Bool)?
        switch key.grant {
        case .codeUnknown, .refreshUnknown, .tokenUnknown: presented = "c0f4d18d62a124c9482dec72e9b647f6d.0.nwus.bogus"
        case .codeExpired:
            presented = try newCode()
            h.clock.advance(seconds: 301)
        case .codeUsed:
            presented = try newCode()
            #expect(try h.redeem(presented).status == 200)
        case .codeValid:
            presented = try newCode()
            let code = presented
            stillUsable = { try h.redeem(code).status == 200 }
        case .refreshRevoked, .tokenRevoked:
            presented = try newRefreshToken().refresh
            #expect(try h.revoke(presented).status == 200)
        case .refreshValid, .tokenValid:
            presented = try newRefreshToken().refresh
            let token = presented
            stillUsable = { try h.refresh(token).status == 200 }
        case .tokenExpired:
            presented = try newRefreshToken().access
            h.clock.advance(seconds: 3601)
        }

        let request: HTTPRequest
        switch key.grant.endpoint {
        case .revoke:
            request = RequestBuilder.form(
                "/auth/revoke", [("client_id", clientID), ("client_secret", secret), ("token", presented)])
        case .token:
            var fields = [("client_id", clientID), ("client_secret", secret)]
            if key.grant.isCode {
                fields += [("grant_type", "authorization_code"), ("code", presented), ("redirect_uri", redirectURI)]
            } else {
                fields += [("grant_type", "refresh_token"), ("refresh_token", presented)]
            }
            request = RequestBuilder.form("/auth/token", fields)
        }
        let response = try h.send(request)
        let actual = Answer(status: response.status, error: response.error, errorDescription: response.errorDescription)
        #expect(actual == expected, "\(key): got \(actual) for row \(row)")
        if expected.status == 400 && expected.errorDescription == nil {
            #expect(response.json?.keys == ["error"], "\(key): no description: \(response.text)")
        }
        if expected.status == 200 && key.grant.endpoint == .token {
            #expect(response.json?["access_token"] != nil, "\(key): \(response.text)")
        }
        if expected.status == 400, let stillUsable {
            #expect(try stillUsable(), "\(key): the refused request consumed the grant")
        }
    }
}

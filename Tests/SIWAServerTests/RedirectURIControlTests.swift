import HTTP
import JSON
import SIWACore
import SIWATestSupport
import Testing

/// `POST /mock/clients/{id}/redirect-uris` and the reason an unregistered redirect_uri is refused with
/// (docs/control-api.md, "A client's redirect URIs").
@Suite struct RedirectURIControlTests {
    static let callback = "http://127.0.0.1:43817/callback"

    func journalReasons(_ h: ControlHarness) throws -> [String] {
        let journal = try h.send(RequestBuilder.get("/mock/requests", query: [("path", "/auth/authorize")]))
        return journal.json?["requests"]?.arrayValue?.compactMap { $0["reason"]?.stringValue } ?? []
    }

    @Test(arguments: Transport.allCases)
    func unregisteredRedirectNamesTheRegisteredOnesUntilAddedByOneCall(_ transport: Transport) throws {
        try ControlHarness.run(transport) { h in
            let refused = try h.send(
                RequestBuilder.authorize(redirectURI: Self.callback, extra: [("login_hint", "bob")]))
            #expect(refused.status == 400 && refused.errorDescription == "Invalid web redirect url.")
            let reason = try #require(try journalReasons(h).last)
            #expect(reason.contains("'\(Self.callback)' is not registered for \(TestKeys.webClientID)"), "\(reason)")
            #expect(reason.contains("'\(TestKeys.redirectURI)'") && reason.contains("redirect-uris"), "\(reason)")

            let near = try h.send(
                RequestBuilder.authorize(redirectURI: "http://127.0.0.1:8001/callback", extra: [("login_hint", "bob")]))
            #expect(near.status == 400)
            #expect(try journalReasons(h).last?.contains("(did you mean 'http://127.0.0.1:8000/callback'?)") == true)

            let added = try h.call(
                .post, "/mock/clients/\(TestKeys.webClientID)/redirect-uris", ["redirect_uri": .string(Self.callback)])
            #expect(added.status == 200)
            let uris = added.json?["redirect_uris"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(uris.last == Self.callback && uris.contains(TestKeys.redirectURI))
            let again = try h.call(
                .post, "/mock/clients/\(TestKeys.webClientID)/redirect-uris", ["redirect_uri": .string(Self.callback)])
            #expect(again.json?["redirect_uris"]?.arrayValue?.count == uris.count, "adding twice changes nothing")

            let accepted = try h.send(
                RequestBuilder.authorize(redirectURI: Self.callback, extra: [("login_hint", "bob")]))
            #expect(accepted.status == 200, "form_post page to the new URI: \(accepted.text)")
            #expect(try h.call(.post, "/mock/reset").status == 200)
            let afterReset = try h.send(
                RequestBuilder.authorize(redirectURI: Self.callback, extra: [("login_hint", "bob")]))
            #expect(afterReset.status == 400, "reset returns to the scenario's list")
        }
    }

    @Test func refusedAdditions() throws {
        try ControlHarness.run(.inProcess) { h in
            let path = "/mock/clients/\(TestKeys.webClientID)/redirect-uris"
            expectControlError(try h.call(.post, path, ["redirect_uri": "not a url"]), 400, field: "redirect_uri")
            expectControlError(try h.call(.post, path, ["uri": "http://x/cb"]), 400, field: "uri")
            expectControlError(try h.call(.post, path), 400, field: "body")
            expectControlError(
                try h.call(.post, "/mock/clients/com.example.wbe/redirect-uris", ["redirect_uri": "http://x/cb"]), 404,
                field: "client_id")
            expectControlError(
                try h.call(
                    .post, "/mock/clients/\(TestKeys.nativeClientID)/redirect-uris", ["redirect_uri": "http://x/cb"]),
                409, field: "client_id")
            for index in 0..<200 {
                let response = try h.call(.post, path, ["redirect_uri": .string("http://127.0.0.1/cb\(index)")])
                if response.status != 200 {
                    expectControlError(response, 409, field: "redirect_uri")
                    #expect(index == 100 - 3, "the built-in client has 3; at most 100 in all")
                    break
                }
            }
        }
    }
}

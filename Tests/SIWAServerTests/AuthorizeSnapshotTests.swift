import JSON
import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@testable import SIWAServer

/// One /auth/authorize request answers from one scenario version (issue #23): the response is shaped by
/// the snapshot the request took, even when the scenario is replaced before the response is written.
@Suite struct AuthorizeSnapshotTests {
    @Test func aReloadMidRequestDoesNotReshapeTheWebMessage() throws {
        let endpoints = try TestFixtures.endpoints().endpoints
        let provider = endpoints.provider
        let snapshot = provider.snapshot  // what the request took: the built-in envelope shape
        let parameters = [
            (name: "client_id", value: TestKeys.webClientID), (name: "redirect_uri", value: TestKeys.redirectURI),
            (name: "response_type", value: "code"), (name: "response_mode", value: "web_message"),
        ]
        let authorization = try snapshot.authorizationRequests.validate(parameters).get()

        var reloaded = Scenario.builtIn
        reloaded.settings.webMessageShape = .response
        try provider.replaceScenario(reloaded)  // the reload lands while the request is in flight
        #expect(provider.scenario.settings.webMessageShape == .response)

        let page = endpoints.deliver(provider.cancellation(of: authorization), for: authorization, in: snapshot)
        let data = try WebMessageTests.data(
            TestResponse(status: page.status.code, headers: page.headers, body: page.body))
        let text = try #require(data["message"]?.stringValue, "the envelope shape of the request's snapshot")
        #expect(text == #"{"method":"oauthDone","data":{"error":"user_cancelled_authorize"}}"#)
    }
}

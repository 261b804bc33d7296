import SIWACore
import SIWATestSupport
import ScenarioModel
import Testing

@Suite struct AuthorizationRequestValidatorTests {
    let validator = AuthorizationRequestValidator(scenario: .builtIn)

    static func params(
        clientID: String? = TestKeys.webClientID, redirectURI: String? = TestKeys.redirectURI,
        responseType: String? = "code", scope: String? = nil, responseMode: String? = nil,
        extra: [(String, String)] = []
    ) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        if let clientID { out.append(("client_id", clientID)) }
        if let redirectURI { out.append(("redirect_uri", redirectURI)) }
        if let responseType { out.append(("response_type", responseType)) }
        if let scope { out.append(("scope", scope)) }
        if let responseMode { out.append(("response_mode", responseMode)) }
        return out + extra.map { (name: $0.0, value: $0.1) }
    }

    func error(_ parameters: [(name: String, value: String)]) -> AppleError? {
        if case .failure(let error) = validator.validate(parameters) { return error }
        return nil
    }

    @Test func minimalCodeRequestDefaultsToQuery() throws {
        let request = try validator.validate(Self.params(extra: [("state", "s"), ("nonce", "n")])).get()
        #expect(request.responseType == .code && request.responseMode == .query && request.scopes.isEmpty)
        #expect(request.state == "s" && request.nonce == "n")
    }

    @Test func hybridDefaultsToFragmentOrQueryBySetting() throws {
        let request = try validator.validate(Self.params(responseType: "code id_token")).get()
        #expect(request.responseType == .codeIDToken && request.responseMode == .fragment)
        #expect(try validator.validate(Self.params(responseType: "id_token code")).get().responseType == .codeIDToken)
        var scenario = Scenario.builtIn
        scenario.settings.defaultResponseMode = .query
        let strict = AuthorizationRequestValidator(scenario: scenario)
        #expect(strict.validate(Self.params(responseType: "code id_token")).failure == .invalidResponseMode)
    }

    @Test func scopesRequireFormPost() throws {
        let ok = try validator.validate(Self.params(scope: "name email", responseMode: "form_post")).get()
        #expect(ok.scopes == [.name, .email] && ok.responseMode == .formPost)
        #expect(error(Self.params(scope: "email", responseMode: "query")) == .responseModeMustBeFormPost)
        #expect(error(Self.params(scope: "name", responseMode: "fragment")) == .responseModeMustBeFormPost)
        #expect(error(Self.params(scope: "name")) == .responseModeMustBeFormPost)
        #expect(
            error(Self.params(scope: "email", responseMode: "query"))?.message
                == "response_mode must be form_post when name or email scope is requested.")
        // Both rules broken: the id_token rule is checked first.
        #expect(
            error(Self.params(responseType: "code id_token", scope: "email", responseMode: "query"))
                == .invalidResponseMode)
        #expect(try validator.validate(Self.params(scope: "openid", responseMode: "query")).get().scopes == [.openid])
        #expect(try validator.validate(Self.params(scope: "", responseMode: "query")).get().scopes.isEmpty)
    }

    @Test func idTokenNeverInQuery() {
        let e = error(Self.params(responseType: "code id_token", responseMode: "query"))
        #expect(e?.code == .invalidRequest && e?.message == "Invalid response mode")
    }

    @Test func responseTypeRules() {
        #expect(error(Self.params(responseType: "id_token"))?.message == "Invalid response type")
        #expect(error(Self.params(responseType: "token")) == .invalidResponseType)
        #expect(error(Self.params(responseType: nil)) == .invalidResponseType)
        #expect(error(Self.params(responseType: "code code")) == .invalidResponseType)
    }

    @Test func unknownScopeIsInvalidScope() {
        #expect(error(Self.params(scope: "profile", responseMode: "form_post"))?.code == .invalidScope)
        #expect(error(Self.params(scope: "name Email", responseMode: "form_post"))?.code == .invalidScope)
    }

    @Test func clientRules() {
        #expect(error(Self.params(clientID: nil))?.code == .invalidRequest)
        #expect(error(Self.params(clientID: "com.unknown")) == .invalidClient)
        #expect(error(Self.params(clientID: "COM.EXAMPLE.WEB")) == .invalidClient)
        // A bundle ID on the web: Apple's page says invalid_request (docs/fidelity.md, "Behaviours").
        let native = error(Self.params(clientID: TestKeys.nativeClientID))
        #expect(native?.code == .invalidRequest && native?.message == "Invalid client id or web redirect url.")
    }

    @Test func redirectURIMustBeRegisteredExactly() {
        #expect(error(Self.params(redirectURI: nil))?.message == "Invalid web redirect url.")
        #expect(error(Self.params(redirectURI: TestKeys.redirectURI + "/")) == .invalidWebRedirectURL)
        #expect(error(Self.params(redirectURI: "https://evil.example.com/cb")) == .invalidWebRedirectURL)
        #expect((try? validator.validate(Self.params(redirectURI: "http://127.0.0.1:8000/callback")).get()) != nil)
    }

    @Test func badResponseModeAndDuplicates() {
        #expect(error(Self.params(responseMode: "WEB_MESSAGE")) == .invalidResponseMode)
        #expect(error(Self.params(responseMode: "web-message")) == .invalidResponseMode)
        // Sign in with Apple JS's popup mode; like form_post it may carry name and email (docs/fidelity.md).
        let popup = Self.params(responseType: "code id_token", scope: "name email", responseMode: "web_message")
        #expect((try? validator.validate(popup).get())?.responseMode == .webMessage)
        #expect(error(Self.params(extra: [("state", "a"), ("state", "b")]))?.code == .invalidRequest)
        #expect(error(Self.params(extra: [("client_id", TestKeys.webClientID)]))?.code == .invalidRequest)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

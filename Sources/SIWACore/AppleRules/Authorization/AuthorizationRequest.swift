/// A `/auth/authorize` request that passed Apple's checks, documented at
/// https://developer.apple.com/documentation/signinwithapplerestapi/request-an-authorization-to-the-sign-in-with-apple-server.
import ScenarioModel

package struct AuthorizationRequest: Sendable, Equatable {
    package var clientID: String
    package var redirectURI: String
    package var responseType: ResponseType
    /// Requested scopes in request order, without repeats.
    package var scopes: [Scope]
    /// The mode the answer is delivered in (explicit or defaulted).
    package var responseMode: ResponseMode
    package var state: String?
    package var nonce: String?

    package init(
        clientID: String, redirectURI: String, responseType: ResponseType, scopes: [Scope] = [],
        responseMode: ResponseMode, state: String? = nil, nonce: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.scopes = scopes
        self.responseMode = responseMode
        self.state = state
        self.nonce = nonce
    }

    /// `code` or `code id_token`; `id_token` alone is not supported by Apple.
    package enum ResponseType: String, Sendable, Equatable {
        case code
        case codeIDToken = "code id_token"

        package var includesIDToken: Bool { self == .codeIDToken }
    }

    package enum ResponseMode: String, Sendable, Equatable, CaseIterable {
        case query
        case fragment
        case formPost = "form_post"
        /// What Sign in with Apple JS's popup requests (`usePopup: true`): the result page posts the
        /// response to `window.opener` at the redirect_uri's origin (docs/fidelity.md, "web_message").
        case webMessage = "web_message"

        /// Whether the response is posted (a form or a message) rather than put into a URL; only these
        /// modes may carry the user data that `name` and `email` scopes release.
        package var postsResponse: Bool { self == .formPost || self == .webMessage }
    }
}

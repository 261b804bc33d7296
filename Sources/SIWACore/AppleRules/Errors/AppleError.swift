/// An error as Apple puts it on the wire: one of Apple's codes plus an optional description.
///
/// Rendered at the edge as HTTP 400 `{"error":"…","error_description":"…"}` (description omitted when
/// nil). See https://developer.apple.com/documentation/signinwithapplerestapi/errorresponse and TN3107.
package struct AppleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple's six token-endpoint codes, plus the one code delivered to a redirect_uri.
    package enum Code: String, Sendable, Equatable, CaseIterable {
        case invalidRequest = "invalid_request"
        case invalidClient = "invalid_client"
        case invalidGrant = "invalid_grant"
        case unauthorizedClient = "unauthorized_client"
        case unsupportedGrantType = "unsupported_grant_type"
        case invalidScope = "invalid_scope"
        /// Only ever delivered to redirect_uri (the user pressed Cancel).
        case userCancelledAuthorize = "user_cancelled_authorize"
    }

    package var code: Code
    /// `error_description`; Apple sends none for most `invalid_client` failures.
    package var message: String?

    package init(_ code: Code, _ message: String? = nil) {
        self.code = code
        self.message = message
    }

    package var description: String { message.map { "\(code.rawValue): \($0)" } ?? code.rawValue }
}

extension AppleError {
    package static func invalidRequest(_ message: String? = nil) -> AppleError { AppleError(.invalidRequest, message) }
    /// Client authentication failed. Apple sends no description.
    package static let invalidClient = AppleError(.invalidClient)
    package static func invalidGrant(_ message: String? = nil) -> AppleError { AppleError(.invalidGrant, message) }
    package static func invalidScope(_ message: String? = nil) -> AppleError { AppleError(.invalidScope, message) }
    package static func unsupportedGrantType(_ message: String? = nil) -> AppleError {
        AppleError(.unsupportedGrantType, message)
    }
    package static func unauthorizedClient(_ message: String? = nil) -> AppleError {
        AppleError(.unauthorizedClient, message)
    }

    // Apple's observed description strings (evidence in docs/fidelity.md), copied exactly.
    package static let codeAlreadyUsed = invalidGrant("The code has already been used.")
    package static let codeExpiredOrRevoked = invalidGrant("The code has expired or has been revoked.")
    /// The mismatch errors name what the request *presented* ("The code was not issued to <the client_id
    /// you sent>"; arendajaelu/nestjs-passport-apple#2: a native code redeemed with the Services ID), not
    /// the client or redirect_uri the grant was issued to.
    package static func clientIDMismatch(presented clientID: String) -> AppleError {
        invalidGrant("client_id mismatch. The code was not issued to \(clientID).")
    }
    package static func redirectURIMismatch(presented redirectURI: String) -> AppleError {
        invalidGrant("redirect_uri mismatch. The code was not issued to \(redirectURI).")
    }
    /// `code id_token` with `response_mode=query` (forum 660531).
    package static let invalidResponseMode = invalidRequest("Invalid response mode")
    /// `name` or `email` scope without `response_mode=form_post` (oauth-io/oauth-js#104, nov/apple_id#6,
    /// getfider/fider#1357; docs/fidelity.md).
    package static let responseModeMustBeFormPost = invalidRequest(
        "response_mode must be form_post when name or email scope is requested.")
    package static let invalidResponseType = invalidRequest("Invalid response type")
    package static let invalidWebRedirectURL = invalidRequest("Invalid web redirect url.")
    /// A native App ID (bundle ID) as `client_id` at `/auth/authorize` (docs/fidelity.md, "Behaviours").
    package static let invalidClientIDOrWebRedirectURL = invalidRequest("Invalid client id or web redirect url.")
    /// The refresh token is unknown, revoked, or belongs to an ended authorization (a-tokyo/apple-signin-auth
    /// `__tests__/index.test.js` against the real endpoint; docs/fidelity.md).
    package static let invalidRefreshToken = invalidGrant("The token has expired or has been revoked.")
    /// A refresh or access token presented by a client it was not issued to ([3p] wording).
    package static func tokenClientMismatch(presented clientID: String) -> AppleError {
        invalidRequest("client_id mismatch. The token was not issued to \(clientID).")
    }
}

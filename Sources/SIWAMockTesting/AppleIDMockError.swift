import SIWACore

/// Why an `AppleIDMock` call was refused. Nothing was changed.
///
/// `message` is the reason in words, the same text the mock's request journal records when the
/// equivalent HTTP call (`POST /mock/credentials`, `PATCH /mock/users/{id}`, …) is refused; misuse
/// names the value meant when one is close: "unknown user 'alcie' (did you mean 'alice'?)".
public struct AppleIDMockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of refusal this is.
    public enum Kind: String, Sendable, Equatable {
        /// A named user, client, key, fault rule or team does not exist.
        case notFound = "not_found"
        /// A value is not acceptable (a Services ID where an App ID belongs, a bad scope, …).
        case invalid = "invalid_request"
        /// The change contradicts the mock's state (retiring the key that signs).
        case conflict
        /// Not possible right now (no pre-generated signing key is ready yet).
        case unavailable
        /// The scenario did not load; `message` lists every problem as `file:line:column: message`.
        case scenario
        /// The server could not start or answered something unexpected.
        case server
        /// `verify(idToken:audience:)` found problems; `message` lists them.
        case invalidToken = "invalid_token"
        /// The device would offer no credential (`ASAuthorizationError.Code.canceled` with
        /// `prefersImmediatelyAvailableCredentials`).
        case noCredentials = "no_credentials"
        /// The sheet ended without a credential as the test scripted
        /// (``AppleIDMock/failNextAuthorization(with:times:client:)``); ``authorizationErrorCode`` says how.
        case authorization = "authorization_error"
    }

    public var kind: Kind
    /// The input at fault (`user`, `client_id`, `kid`, …), when one is.
    public var field: String?
    /// The reason, as the request journal words it.
    public var message: String
    /// For `.noCredentials` and `.authorization`: the `ASAuthorizationError.Code` raw value the framework
    /// reports (1001 `canceled`, 1000 `unknown`, …).
    public var authorizationErrorCode: Int?

    /// For `.noCredentials` and `.authorization`: the error `ASAuthorizationController` would report.
    public var authorizationError: AuthorizationError? {
        authorizationErrorCode.flatMap(AuthorizationError.Code.init(rawValue:)).map { AuthorizationError($0, message) }
    }

    public init(_ kind: Kind, field: String? = nil, _ message: String) {
        self.kind = kind
        self.field = field
        self.message = message
    }

    public var description: String { field.map { "\($0): \(message)" } ?? message }

    init(_ error: ProviderChangeError) {
        let kind: Kind =
            switch error.kind {
            case .notFound: .notFound
            case .invalid: .invalid
            case .conflict: .conflict
            case .unavailable: .unavailable
            }
        self.init(kind, field: error.field, error.message)
    }

    /// The one-call forms' `.authorization` refusal for a scripted sheet outcome.
    init(_ error: AuthorizationError) {
        self.init(.authorization, field: "requests", error.message)
        authorizationErrorCode = error.code.rawValue
    }
}

/// Runs `body`, turning the provider's refusal into the library's error.
func mapped<T>(_ body: () throws(ProviderChangeError) -> T) throws(AppleIDMockError) -> T {
    do throws(ProviderChangeError) {
        return try body()
    } catch {
        throw AppleIDMockError(error)
    }
}

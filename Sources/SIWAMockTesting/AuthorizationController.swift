import Locking

/// `ASAuthorizationCredential`: what a successful request hands the app. Cast it as the framework's
/// callers do: `authorization.credential as? AppleIDCredential`.
public protocol AuthorizationCredential: Sendable {}
extension AppleIDCredential: AuthorizationCredential {}
extension PasswordCredential: AuthorizationCredential {}

/// `ASAuthorizationRequest`: ``AppleIDRequest`` or ``PasswordRequest``.
public protocol AuthorizationRequest: AnyObject, Sendable {}

/// `ASAuthorization`: the credential and the provider whose request produced it.
public struct Authorization: Sendable {
    public var credential: any AuthorizationCredential
    public var provider: any AuthorizationProvider
}

/// `ASAuthorizationProvider`: ``AppleIDProvider`` or ``PasswordProvider``.
public protocol AuthorizationProvider: Sendable {
    /// The mock that plays the device.
    var mock: AppleIDMock { get }
    /// The scenario user signed in to the device (id, email or `sub`).
    var user: String { get }
    /// The app (bundle ID) making the requests.
    var client: String { get }
}

/// `ASAuthorizationController(authorizationRequests:)`: runs an app's requests against a mock and answers
/// as the device would. App code that wraps AuthenticationServices behind its own protocol takes these
/// types in place of the framework's:
///
/// ```swift
/// let provider = AppleIDProvider(mock: apple, user: "alice", client: "com.example.app")
/// let request = provider.createRequest()
/// request.requestedScopes = [.fullName, .email]
/// request.nonce = hashedNonce
/// let controller = AuthorizationController(authorizationRequests: [request])
/// let authorization = try await controller.performRequests()   // or throws AuthorizationError
/// let credential = authorization.credential as? AppleIDCredential
/// ```
///
/// The framework reports through a delegate; the mock's ``performRequests(options:)`` returns what
/// `didCompleteWithAuthorization` receives and throws what `didCompleteWithError` receives.
public final class AuthorizationController: Sendable {
    /// `ASAuthorizationController.RequestOptions`.
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Offer only credentials already on the device; no sheet for a first sign-in.
        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1)
    }

    public let authorizationRequests: [any AuthorizationRequest]

    public init(authorizationRequests: [any AuthorizationRequest]) {
        self.authorizationRequests = authorizationRequests
    }

    /// Answers the requests as the device would.
    ///
    /// One ``AppleIDRequest`` alone: the Sign in with Apple sheet, a credential with the request's scopes,
    /// nonce and state. With a ``PasswordRequest``, or with `.preferImmediatelyAvailableCredentials`: the
    /// existing-account flow of
    /// ``AppleIDMock/performExistingAccountSetupFlows(user:client:requests:preferImmediatelyAvailableCredentials:scopes:nonce:state:)``.
    ///
    /// - Throws: ``AuthorizationError`` as the framework reports it: the outcome a test scripted with
    ///   ``AppleIDMock/failNextAuthorization(with:times:client:)``, or `.canceled`/`.unknown` when the device
    ///   offers no credential (its `message` says why). ``AppleIDMockError`` for misuse: no request, requests
    ///   of different devices, more than one of a kind, an unknown user or client, a Services ID.
    public func performRequests(options: RequestOptions = []) async throws -> Authorization {
        let device = try Device(authorizationRequests)
        let mock = device.provider.mock
        if let scripted = mock.scriptedFailure(user: device.provider.user, client: device.provider.client) {
            throw scripted
        }
        let appleID = device.appleID?.settings ?? AppleIDRequest.Settings()
        if let appleIDProvider = device.appleID?.provider, device.password == nil,
            !options.contains(.preferImmediatelyAvailableCredentials)
        {
            let credential = try mock.issueCredential(
                user: appleIDProvider.user, client: appleIDProvider.client, scopes: appleID.requestedScopes ?? [],
                nonce: appleID.nonce, state: appleID.state)
            return Authorization(credential: credential, provider: appleIDProvider)
        }
        let kinds: [CredentialRequest] =
            (device.appleID != nil ? [.appleID] : []) + (device.password != nil ? [.password] : [])
        let answer = try mock.existingAccountCredential(
            user: device.provider.user, client: device.provider.client, requests: kinds,
            preferImmediatelyAvailableCredentials: options.contains(.preferImmediatelyAvailableCredentials),
            scopes: appleID.requestedScopes ?? [], nonce: appleID.nonce, state: appleID.state)
        switch answer {
        case .success(.appleID(let credential)):
            return Authorization(credential: credential, provider: device.appleID?.provider ?? device.provider)
        case .success(.password(let credential)):
            return Authorization(credential: credential, provider: device.password?.provider ?? device.provider)
        case .failure(let error):
            throw error
        }
    }

    /// The requests, checked: at most one of each kind, all of one device (mock, user, app).
    private struct Device {
        var appleID: AppleIDRequest?
        var password: PasswordRequest?
        var provider: any AuthorizationProvider

        init(_ requests: [any AuthorizationRequest]) throws(AppleIDMockError) {
            var first: (any AuthorizationProvider)?
            for request in requests {
                let provider: any AuthorizationProvider
                if let request = request as? AppleIDRequest {
                    guard appleID == nil else { throw Self.misuse("at most one AppleIDRequest") }
                    appleID = request
                    provider = request.provider
                } else if let request = request as? PasswordRequest {
                    guard password == nil else { throw Self.misuse("at most one PasswordRequest") }
                    password = request
                    provider = request.provider
                } else {
                    throw Self.misuse("\(type(of: request)) is not an AppleIDRequest or a PasswordRequest")
                }
                if let first,
                    first.mock !== provider.mock || first.user != provider.user || first.client != provider.client
                {
                    throw Self.misuse(
                        "requests of different devices (\(first.user) in \(first.client), \(provider.user) in \(provider.client))"
                    )
                }
                first = first ?? provider
            }
            guard let first else { throw Self.misuse("must hold an AppleIDRequest, a PasswordRequest or both") }
            self.provider = first
        }

        static func misuse(_ message: String) -> AppleIDMockError {
            AppleIDMockError(.invalid, field: "authorizationRequests", message)
        }
    }
}

/// `ASAuthorizationAppleIDProvider` on a device where `user` is signed in to their Apple Account and
/// the app `client` runs.
public struct AppleIDProvider: AuthorizationProvider {
    public let mock: AppleIDMock
    public let user: String
    public let client: String

    public init(mock: AppleIDMock, user: String, client: String) {
        self.mock = mock
        self.user = user
        self.client = client
    }

    /// `createRequest()`: a request with no scopes, nonce or state until the app sets them.
    public func createRequest() -> AppleIDRequest { AppleIDRequest(provider: self) }

    /// `credentialState(forUserID:)`: ``AppleIDMock/credentialState(forUserID:client:)`` in this app.
    public func credentialState(forUserID userID: String) async throws(AppleIDMockError) -> AppleIDMock.CredentialState
    {
        try mock.credentialState(forUserID: userID, client: client)
    }

    /// `credentialRevokedNotification` for this app: ``AppleIDMock/credentialRevocations(client:)``.
    public func credentialRevocations() throws(AppleIDMockError) -> AsyncStream<CredentialRevocation> {
        try mock.credentialRevocations(client: client)
    }
}

/// `ASAuthorizationPasswordProvider` on a device where `user` is signed in and the app `client` runs.
public struct PasswordProvider: AuthorizationProvider {
    public let mock: AppleIDMock
    public let user: String
    public let client: String

    public init(mock: AppleIDMock, user: String, client: String) {
        self.mock = mock
        self.user = user
        self.client = client
    }

    /// `createRequest()`: ask for a password the user saved for one of the app's websites.
    public func createRequest() -> PasswordRequest { PasswordRequest(provider: self) }
}

/// `ASAuthorizationAppleIDRequest`: set what to ask for, then hand it to an ``AuthorizationController``.
public final class AppleIDRequest: AuthorizationRequest {
    struct Settings: Sendable {
        var requestedScopes: [AuthorizationScope]?
        var nonce: String?
        var state: String?
    }

    public let provider: AppleIDProvider
    private let storage = Lock(Settings())

    init(provider: AppleIDProvider) { self.provider = provider }

    var settings: Settings { storage.withLock { $0 } }

    /// The user data to ask for; nil (the default, as in the framework) asks for none.
    public var requestedScopes: [AuthorizationScope]? {
        get { storage.withLock { $0.requestedScopes } }
        set { storage.withLock { $0.requestedScopes = newValue } }
    }
    /// Copied into the identity token's `nonce` claim (apps set the SHA-256 of their raw nonce).
    public var nonce: String? {
        get { storage.withLock { $0.nonce } }
        set { storage.withLock { $0.nonce = newValue } }
    }
    /// Echoed in the credential's `state`.
    public var state: String? {
        get { storage.withLock { $0.state } }
        set { storage.withLock { $0.state = newValue } }
    }
}

/// `ASAuthorizationPasswordRequest`.
public final class PasswordRequest: AuthorizationRequest {
    public let provider: PasswordProvider

    init(provider: PasswordProvider) { self.provider = provider }
}

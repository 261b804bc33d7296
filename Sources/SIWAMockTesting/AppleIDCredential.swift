import Foundation
import SIWACore
import ScenarioModel

/// What `ASAuthorizationAppleIDCredential` hands the app after Sign in with Apple
/// (https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential).
///
/// The app sends ``identityToken`` and ``authorizationCode`` to its backend; the backend verifies the
/// token and redeems the code at ``AppleIDMock/Endpoints/token`` with the bundle ID and no
/// `redirect_uri`, within 5 minutes.
public struct AppleIDCredential: Sendable, Equatable {
    /// The user's stable identifier for the app's team (the token's `sub`).
    public var user: String
    /// Only on the first authorization, and only with the ``AuthorizationScope/fullName`` scope.
    public var fullName: PersonNameComponents?
    /// Only on the first authorization with the ``AuthorizationScope/email`` scope (a private relay
    /// address for users who hide theirs).
    public var email: String?
    /// Whether the user appears to be real; ``UserDetectionStatus/unsupported`` after the first
    /// authorization, as on a device.
    public var realUserStatus: UserDetectionStatus
    /// The identity token (a JWT), as UTF-8 bytes like the framework's `Data`.
    public var identityToken: Data
    /// The single-use authorization code, as UTF-8 bytes like the framework's `Data`.
    public var authorizationCode: Data
    /// The `state` the request carried.
    public var state: String?
    /// The scopes the user granted.
    public var authorizedScopes: [AuthorizationScope]
    /// Made for an account-upgrade extension (``AppleIDMock/upgradeToSignInWithApple(user:client:nonce:state:)``):
    /// never a full name. On a device the extension knows this from its context; the mock marks it here.
    public var isAccountUpgrade: Bool

    /// ``identityToken`` as text (what a backend receives in JSON).
    public var identityTokenString: String { String(decoding: identityToken, as: UTF8.self) }
    /// ``authorizationCode`` as text.
    public var authorizationCodeString: String { String(decoding: authorizationCode, as: UTF8.self) }

    init(_ native: NativeCredential) {
        user = native.user
        fullName = native.fullName.map { name in
            var components = PersonNameComponents()
            components.givenName = name.firstName
            components.familyName = name.lastName
            return components
        }
        email = native.email
        realUserStatus = UserDetectionStatus(native.realUserStatus)
        identityToken = Data(native.identityToken.utf8)
        authorizationCode = Data(native.authorizationCode.utf8)
        state = native.state
        authorizedScopes = native.authorizedScopes.compactMap(AuthorizationScope.init)
        isAccountUpgrade = native.isAccountUpgrade
    }
}

/// `ASAuthorization.Scope`: the user data an app asks for.
public enum AuthorizationScope: String, Sendable, Equatable, CaseIterable {
    /// `full_name`.
    case fullName = "full_name"
    /// `email`.
    case email

    init?(_ scope: Scope) {
        switch scope {
        case .name: self = .fullName
        case .email: self = .email
        case .openid: return nil
        }
    }

    var scope: Scope {
        switch self {
        case .fullName: .name
        case .email: .email
        }
    }
}

/// `ASUserDetectionStatus`: whether the user appears to be a real person.
public enum UserDetectionStatus: Int, Sendable, Equatable {
    case unsupported = 0
    case unknown = 1
    case likelyReal = 2

    init(_ status: RealUserStatus) {
        switch status {
        case .unsupported: self = .unsupported
        case .unknown: self = .unknown
        case .likelyReal: self = .likelyReal
        }
    }
}

extension AppleIDMock {
    /// `ASAuthorizationAppleIDProvider.CredentialState`: what `getCredentialState(forUserID:)` reports.
    public enum CredentialState: Int, Sendable, Equatable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3

        init(_ state: ScenarioModel.CredentialState) {
            switch state {
            case .revoked: self = .revoked
            case .authorized: self = .authorized
            case .notFound: self = .notFound
            case .transferred: self = .transferred
            }
        }
    }
}

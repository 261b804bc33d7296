import Foundation

/// `ASAuthorizationError`: why an authorization request ended without a credential
/// (https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct).
///
/// ``AuthorizationController/performRequests(options:)`` throws it when a test scripted the outcome
/// (``AppleIDMock/failNextAuthorization(with:times:client:)``: "the user cancels", "the sheet fails") and
/// when the device would offer no credential. App code that catches the framework's error the usual ways
/// handles it unchanged:
///
/// ```swift
/// do { … } catch AuthorizationError.canceled { /* the user closed the sheet */ }
/// catch let error as AuthorizationError where error.code == .failed { … }
/// catch { if (error as NSError).code == 1001 { … } }
/// ```
public struct AuthorizationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `ASAuthorizationError.Code`
    /// (https://developer.apple.com/documentation/authenticationservices/asauthorizationerror-swift.struct/code),
    /// with the framework's raw values.
    public enum Code: Int, Sendable, Equatable, CaseIterable {
        /// The authorization attempt failed for an unknown reason.
        case unknown = 1000
        /// The user canceled the authorization attempt.
        case canceled = 1001
        /// The authorization request received an invalid response.
        case invalidResponse = 1002
        /// The authorization request wasn't handled.
        case notHandled = 1003
        /// The authorization attempt failed.
        case failed = 1004
        /// The authorization request needs to show UI, and the request does not allow it.
        case notInteractive = 1005

        /// `catch AuthorizationError.canceled`: whether `error` is an ``AuthorizationError`` with this code,
        /// as Foundation's `~=` does for the framework's error codes.
        public static func ~= (match: Code, error: any Error) -> Bool {
            (error as? AuthorizationError)?.code == match
        }
    }

    /// The error's code.
    public var code: Code
    /// Why, in words: the test's script, or why the device offered no credential.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The framework's error domain, `com.apple.AuthenticationServices.AuthorizationError`.
    public static let errorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    public static var unknown: Code { .unknown }
    public static var canceled: Code { .canceled }
    public static var invalidResponse: Code { .invalidResponse }
    public static var notHandled: Code { .notHandled }
    public static var failed: Code { .failed }
    public static var notInteractive: Code { .notInteractive }

    public var description: String { "\(Self.errorDomain) \(code.rawValue) (\(code)): \(message)" }
}

extension AuthorizationError: CustomNSError {
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}

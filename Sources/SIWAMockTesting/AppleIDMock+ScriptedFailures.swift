import Locking
import SIWACore

/// The authorization failure a test scripted: the next `remaining` sheet requests (of `client`, or of
/// any app) end with `code`. One script at a time, so it never grows.
final class AuthorizationScript: Sendable {
    struct Failure: Sendable, Equatable {
        var code: AuthorizationError.Code
        var remaining: Int
        var client: String?
    }

    private let state = Lock<Failure?>(nil)

    func set(_ failure: Failure?) { state.withLock { $0 = failure } }

    var pending: Failure? { state.withLock { $0 } }

    /// Takes one failure for a request of `client`, if one is scripted for it.
    func take(client: String) -> AuthorizationError.Code? {
        state.withLock { failure -> AuthorizationError.Code? in
            guard let current = failure, current.client == nil || current.client == client else { return nil }
            failure =
                current.remaining > 1
                ? Failure(code: current.code, remaining: current.remaining - 1, client: current.client) : nil
            return current.code
        }
    }
}

/// "The user cancels", "the sheet fails": what the Sign in with Apple sheet answers next.
extension AppleIDMock {
    /// The next `times` sheet requests end with `code` instead of a credential, as
    /// `ASAuthorizationController`'s delegate would hear in `didCompleteWithError`.
    ///
    /// Sheet requests are ``AuthorizationController/performRequests(options:)``,
    /// ``authorize(user:client:scopes:nonce:state:)`` and
    /// ``performExistingAccountSetupFlows(user:client:requests:preferImmediatelyAvailableCredentials:scopes:nonce:state:)``;
    /// the controller throws ``AuthorizationError``, the one-call forms ``AppleIDMockError`` `.authorization`
    /// with ``AppleIDMockError/authorizationErrorCode``. A request naming an unknown user or client is
    /// refused as misuse and leaves the script in place. A new script replaces one not yet used up;
    /// ``clearScriptedAuthorizationFailure()`` and ``reset()`` remove it.
    ///
    /// - Parameters:
    ///   - code: what the sheet answers (``AuthorizationError/Code/canceled``: the user closed it).
    ///   - times: how many requests in a row (at least 1).
    ///   - client: only requests of this app; nil: any app.
    /// - Throws: ``AppleIDMockError`` `.invalid` for `times` below 1, `.notFound` for an unknown client.
    public func failNextAuthorization(
        with code: AuthorizationError.Code, times: Int = 1, client: String? = nil
    ) throws(AppleIDMockError) {
        guard times >= 1 else {
            throw AppleIDMockError(.invalid, field: "times", "must be at least 1, found \(times)")
        }
        if let client {
            let scenario = provider.scenario
            guard scenario.client(id: client) != nil else {
                throw AppleIDMockError(.unknownClient(client, among: scenario.clients.map(\.id)))
            }
        }
        script.set(.init(code: code, remaining: times, client: client))
    }

    /// Removes a scripted failure not yet used up: requests succeed again.
    public func clearScriptedAuthorizationFailure() {
        script.set(nil)
    }

    /// The scripted failure for a sheet request of `user` in `client`, used up by this call; nil when none
    /// is scripted or the request is misuse (the request itself then says why).
    func scriptedFailure(user: String, client: String) -> AuthorizationError? {
        let provider = self.provider
        guard provider.user(named: user) != nil, provider.scenario.client(id: client) != nil,
            let code = script.take(client: client)
        else { return nil }
        return AuthorizationError(code, "scripted by failNextAuthorization(with: .\(code))")
    }
}

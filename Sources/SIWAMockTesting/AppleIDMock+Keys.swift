import SIWACore

/// One id_token signing key of the mock (`GET /mock/keys`).
public struct SigningKeyInfo: Sendable, Equatable {
    /// The `kid`.
    public var id: String
    /// Listed at `/auth/keys`.
    public var isPublished: Bool
    /// Signs new identity tokens.
    public var signs: Bool
}

/// Apple's id_token signing keys (`/mock/keys`): rotate to test that a backend refetches the JWKS for
/// an unknown `kid`; retire to test that tokens signed by a withdrawn key are refused.
extension AppleIDMock {
    /// The keys, in scenario order.
    public var signingKeys: [SigningKeyInfo] {
        provider.scenario.signingKeys.keys.map {
            SigningKeyInfo(id: $0.kid, isPublished: $0.published, signs: $0.signs)
        }
    }

    /// A new RSA-2048 key signs from now on; the previous one stays published. Keys are made on a
    /// background thread (70-470 ms each): this waits up to `timeout` for one.
    /// - Returns: the new key's `kid`.
    @discardableResult
    public func rotateSigningKey(timeout: Duration = .seconds(15)) async throws(AppleIDMockError) -> String {
        host.keySupply.prime()
        let deadline = ContinuousClock.now + timeout
        while true {
            do throws(ProviderChangeError) {
                return try provider.rotateSigningKey()
            } catch {
                guard error.kind == .unavailable, ContinuousClock.now < deadline else { throw AppleIDMockError(error) }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Removes the key from `/auth/keys`: tokens it signed stop verifying. The signing key cannot be
    /// retired (`.conflict`): rotate first.
    public func retireKey(_ kid: String) throws(AppleIDMockError) {
        let provider = self.provider
        try mapped { () throws(ProviderChangeError) in try provider.retireKey(kid: kid) }
    }

    /// Lists the key at `/auth/keys` again.
    public func publishKey(_ kid: String) throws(AppleIDMockError) {
        let provider = self.provider
        try mapped { () throws(ProviderChangeError) in try provider.publishKey(kid: kid) }
    }
}

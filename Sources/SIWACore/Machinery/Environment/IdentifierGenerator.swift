import JOSE

/// Makes the mock's secrets and one-off identifiers in the shapes Apple uses (docs/fidelity.md,
/// "Identifier shapes"), so fixtures and logs look real.
///
/// - authorization code: `c<32 hex>.0.<4 lowercase letters>.<22 base64url: 16 random bytes>`
/// - access token: `a<32 hex>.0.<4 lowercase letters>.<22 base64url>`
/// - refresh token: `r<32 hex>.0.<4 lowercase letters>.<22 base64url>`
/// - signing key id: 10 alphanumerics; notification `jti`: 22 base64url
///
/// Its randomness is never the scenario's `seed:` (docs/scenarios.md, "Reproducible runs"): two
/// processes with the same seed — replicas of one fleet, or one replica restarted on the same store —
/// must never mint the same code or token, or one user's grant answers for another. What a test reads
/// and compares (subs, relay addresses) is derived from the seed and the user's id instead
/// (`Scenario.derivedSub(ofUserID:)`, `Scenario.derivedRelayEmail(of:)`), so it stays reproducible.
package struct IdentifierGenerator: Sendable {
    package let random: any RandomSource

    /// - Parameter random: the OS generator in the server; tests inject a seeded one.
    package init(random: any RandomSource = SystemRandomSource()) {
        self.random = random
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    private static let alphanumerics = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// A single-use authorization code.
    package func makeAuthorizationCode() -> String {
        "c" + draw(32, from: Self.hexDigits) + ".0." + draw(4, from: Self.letters) + "." + randomTail()
    }

    /// An access token.
    package func makeAccessToken() -> String {
        "a" + draw(32, from: Self.hexDigits) + ".0." + draw(4, from: Self.letters) + "." + randomTail()
    }

    /// A refresh token.
    package func makeRefreshToken() -> String {
        "r" + draw(32, from: Self.hexDigits) + ".0." + draw(4, from: Self.letters) + "." + randomTail()
    }

    /// A 10-character alphanumeric key id (JWKS `kid` shape).
    package func makeKeyID() -> String {
        draw(10, from: Self.alphanumerics)
    }

    /// A notification `jti`: 16 random bytes as 22 base64url characters, the shape of a captured one
    /// (docs/fidelity.md#server-to-server-notifications).
    package func makeUniqueID() -> String { randomTail() }

    /// 16 random bytes in unpadded base64url: 22 characters, the last one of `A`, `Q`, `g` or `w`, as
    /// the tails of Apple's captured codes and tokens are (docs/fidelity.md, "Identifier shapes").
    private func randomTail() -> String {
        Base64URL.encode(random.bytes(16))
    }

    private func draw(_ count: Int, from alphabet: [UInt8]) -> String {
        String(decoding: random.draw(count, from: alphabet), as: UTF8.self)
    }
}

import JOSE

/// Makes identifiers in the shapes Apple uses (see docs/fidelity.md), so fixtures and logs look real.
///
/// - sub / transfer_sub: `NNNNNN.<32 lowercase hex>.NNNN`
/// - authorization code: `c<32 hex>.0.<4 lowercase letters>.<22 base64url>`
/// - access token: `a<32 hex>.0.<2 lowercase letters>.<22 base64url>`
/// - refresh token: `r<32 hex>.0.<2 lowercase letters>.<22 base64url>`
/// - relay email: `<10 lowercase alphanumerics>@privaterelay.appleid.com`
package struct IdentifierGenerator: Sendable {
    package let random: any RandomSource

    package init(random: any RandomSource) {
        self.random = random
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    private static let alphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let base64URL = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let digits = Array("0123456789".utf8)

    /// A team-scoped user identifier, e.g. `001468.7b378a7e37e54e2c885c62c77cb79ed8.0030`.
    package func makeSub() -> String {
        draw(6, from: Self.digits) + "." + draw(32, from: Self.hexDigits) + "." + draw(4, from: Self.digits)
    }

    /// A transfer identifier (same shape as a sub).
    package func makeTransferSub() -> String { makeSub() }

    /// A single-use authorization code.
    package func makeAuthorizationCode() -> String {
        "c" + draw(32, from: Self.hexDigits) + ".0." + draw(4, from: Self.letters) + "."
            + draw(22, from: Self.base64URL)
    }

    /// An access token.
    package func makeAccessToken() -> String {
        "a" + draw(32, from: Self.hexDigits) + ".0." + draw(2, from: Self.letters) + "."
            + draw(22, from: Self.base64URL)
    }

    /// A refresh token.
    package func makeRefreshToken() -> String {
        "r" + draw(32, from: Self.hexDigits) + ".0." + draw(2, from: Self.letters) + "."
            + draw(22, from: Self.base64URL)
    }

    /// A private relay address.
    package func makeRelayEmail() -> String {
        draw(10, from: Self.alphanumerics) + "@privaterelay.appleid.com"
    }

    /// A 10-character alphanumeric key id (JWKS `kid` shape).
    package func makeKeyID() -> String {
        draw(10, from: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8))
    }

    /// A notification `jti`: 16 random bytes as 22 base64url characters, the shape of a captured one
    /// (docs/fidelity.md#server-to-server-notifications).
    package func makeUniqueID() -> String {
        Base64URL.encode((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next(below: 256)) })
    }

    private func draw(_ count: Int, from alphabet: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for _ in 0..<count {
            bytes.append(alphabet[Int(random.next(below: UInt64(alphabet.count)))])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

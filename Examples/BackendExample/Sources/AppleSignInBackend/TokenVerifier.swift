import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Verifies Apple identity tokens as Apple tells backends to
/// (https://developer.apple.com/documentation/signinwithapple/verifying-a-user): RS256 signature with
/// the `/auth/keys` key its `kid` names (refetched once for an unknown `kid`, after a key rotation),
/// then `iss`, `aud`, `exp` and `nonce`.
public actor TokenVerifier {
    public struct Claims: Sendable, Equatable {
        public var subject: String
        public var email: String?
        public var isPrivateEmail: Bool
        public var nonce: String?
        public var expiresAt: Date
    }

    private let configuration: AppleConfiguration
    private let session: URLSession
    /// Apple's public keys by `kid`: modulus and exponent bytes.
    private var keys: [String: (n: [UInt8], e: [UInt8])]?
    /// Judges `exp`; a test passes the mock's clock (`{ apple.now }`).
    private let now: @Sendable () -> Date

    public init(
        configuration: AppleConfiguration, session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.session = session
        self.now = now
    }

    public func verify(_ token: String, nonce: String?) async throws(SignInError) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(payloadBytes))) as? [String: Any]
        else { throw .invalidToken("not a JWS") }
        guard header["alg"] as? String == "RS256", let kid = header["kid"] as? String else {
            throw .invalidToken("alg must be RS256 with a kid")
        }
        var key = try await publicKey(kid, refresh: false)
        if key == nil { key = try await publicKey(kid, refresh: true) }
        guard let key else { throw .invalidToken("no Apple key '\(kid)'") }
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        guard RS256.verify(signature, over: signingInput, modulus: key.n, exponent: key.e) else {
            throw .invalidToken("bad signature")
        }
        guard claims["iss"] as? String == configuration.issuer else { throw .invalidToken("wrong issuer") }
        guard claims["aud"] as? String == configuration.bundleID else { throw .invalidToken("wrong audience") }
        guard let exp = claims["exp"] as? Int, Double(exp) > now().timeIntervalSince1970 else {
            throw .invalidToken("expired")
        }
        if let nonce, claims["nonce"] as? String != nonce { throw .invalidToken("nonce mismatch") }
        guard let subject = claims["sub"] as? String else { throw .invalidToken("no sub") }
        // Apple sent booleans as strings until 2024; accept both.
        let privateEmail = claims["is_private_email"]
        return Claims(
            subject: subject, email: claims["email"] as? String,
            isPrivateEmail: privateEmail as? Bool ?? (privateEmail as? String == "true"),
            nonce: claims["nonce"] as? String, expiresAt: Date(timeIntervalSince1970: Double(exp)))
    }

    private func publicKey(_ kid: String, refresh: Bool) async throws(SignInError) -> (n: [UInt8], e: [UInt8])? {
        if refresh || keys == nil {
            let data: Data
            do {
                (data, _) = try await session.data(from: configuration.keysURL)
            } catch {
                throw .appleUnavailable("cannot fetch Apple's keys: \(error)")
            }
            guard let jwks = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                let list = jwks["keys"] as? [[String: Any]]
            else { throw .appleUnavailable("Apple's keys are not a JWKS") }
            var parsed: [String: (n: [UInt8], e: [UInt8])] = [:]
            for jwk in list where jwk["kty"] as? String == "RSA" {
                if let id = jwk["kid"] as? String, let n = (jwk["n"] as? String).flatMap(Base64URL.decode),
                    let e = (jwk["e"] as? String).flatMap(Base64URL.decode)
                {
                    parsed[id] = (n, e)
                }
            }
            keys = parsed
        }
        return keys?[kid]
    }
}

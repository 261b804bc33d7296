/// Why a client secret was refused. Internal detail for logs and tests: on the wire every case is
/// `invalid_client` with no description, as Apple does.
package enum ClientSecretFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS, bad base64url, or header/payload not JSON objects.
    case malformed(String)
    /// Header `alg` is not `ES256`.
    case wrongAlgorithm(String?)
    case missingKeyID
    /// The team has keys registered, but none with this kid.
    case unknownKeyID(String)
    /// A required claim is absent or has the wrong JSON type.
    case missingClaim(String)
    /// No client with the form's client_id.
    case unknownClient(String)
    /// `iss` is not the Team ID of the client.
    case wrongIssuer(String)
    /// `sub` is not exactly the form's client_id.
    case wrongSubject(String, clientID: String)
    /// `aud` is not `https://appleid.apple.com`.
    case wrongAudience
    /// `exp` is not after the server's now.
    case expired
    /// `exp` is more than the allowed lifetime (15777000 s) after the server's now.
    case expiresTooFarAhead
    /// `iat` is after the server's now plus the allowed skew.
    case issuedInFuture
    /// The signature is not a 64-byte JOSE `r || s` value (e.g. DER).
    case signatureNotRaw(byteCount: Int)
    case badSignature

    package var appleError: AppleError { .invalidClient }

    package var description: String {
        switch self {
        case .malformed(let why): "client_secret is not a valid JWS: \(why)"
        case .wrongAlgorithm(let alg): "client_secret alg is \(alg.map { "'\($0)'" } ?? "missing"), expected ES256"
        case .missingKeyID: "client_secret header has no kid"
        case .unknownKeyID(let kid): "client_secret kid '\(kid)' is not registered for the team"
        case .missingClaim(let claim): "client_secret claim '\(claim)' is missing or has the wrong type"
        case .unknownClient(let id): "unknown client_id '\(id)'"
        case .wrongIssuer(let iss): "client_secret iss '\(iss)' is not the client's team"
        case .wrongSubject(let sub, let clientID): "client_secret sub '\(sub)' ≠ client_id '\(clientID)'"
        case .wrongAudience: "client_secret aud is not https://appleid.apple.com"
        case .expired: "client_secret has expired"
        case .expiresTooFarAhead: "client_secret exp is more than 15777000 s ahead"
        case .issuedInFuture: "client_secret iat is in the future"
        case .signatureNotRaw(let count): "client_secret signature is \(count) bytes, not a 64-byte r||s (DER?)"
        case .badSignature: "client_secret signature does not verify"
        }
    }
}

/// A client secret that passed validation.
package struct ClientSecretValidation: Sendable, Equatable {
    package var clientID: String
    package var teamID: String
    package var keyID: String
    /// False when the team has no registered keys: claims were checked, the signature was not.
    package var signatureVerified: Bool
    /// True when the ES256 verification was skipped because the same secret verified before.
    package var fromCache: Bool
}

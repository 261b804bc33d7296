/// A JOSE-level failure: a malformed token or key, or an OpenSSL call that failed.
///
/// `kind` is for code to switch on; `message` is for people and says exactly what was wrong
/// (e.g. "expected a P-256 key, found curve secp384r1").
public struct JOSEError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case malformedToken
        case invalidKey
        case unsupportedAlgorithm
        case cryptoFailure
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

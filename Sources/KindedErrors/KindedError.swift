/// The one error shape of the library modules: a `kind` for code to switch on and a `message` for people
/// that says exactly what was wrong (e.g. "expected a P-256 key, found curve secp384r1").
///
/// Each module names its own kinds (JOSE's `JOSEError` = `KindedError<JOSEErrorKind>`, TLS's `TLSError`,
/// the event loop's `ClientError` and `ListenError`, RESP's `RedisError`), so a `switch` over `error.kind`
/// stays exhaustive per module. It lives in a module of its own, below all of them, so none imports a
/// higher module for it.
package struct KindedError<K: Sendable & Equatable>: Error, Sendable, Equatable, CustomStringConvertible {
    package typealias Kind = K

    package var kind: Kind
    package var message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }

    /// The same message under another module's kind (TLS reports JOSE's key-reading errors as its own).
    package func reclassified<Other>(as kind: Other) -> KindedError<Other> {
        KindedError<Other>(kind, message)
    }
}

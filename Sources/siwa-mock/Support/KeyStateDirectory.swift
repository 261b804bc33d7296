import JOSE
import SIWACore

/// `--state-dir`: the scenario's signing keys live there as `signing-<kid>.pem` (mode 0600), created on
/// first use, so a restarted mock publishes the same JWKS and honours tokens it signed before.
///
/// Without a state directory the scenario's own PEMs are used (the built-in scenario ships fixed test
/// keys, so startup never generates a key).
struct KeyStateDirectory {
    var path: String

    /// Replaces each signing key's PEM with the one stored for its `kid`, generating and storing a new
    /// RSA-2048 key where none is stored yet.
    func apply(to keys: SigningKeySet, log: RequestLog) throws(RuntimeError) -> SigningKeySet {
        try FileSystem.makeDirectory(path)
        var result = keys
        for index in result.keys.indices {
            let kid = result.keys[index].kid
            guard kid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw RuntimeError("signing key id '\(kid)' cannot be used as a file name in --state-dir")
            }
            let file = "\(path)/signing-\(kid).pem"
            if FileSystem.exists(file) {
                let pem = try FileSystem.readText(file, limit: 64 * 1024)
                do {
                    _ = try RSAPrivateKey(pem: pem)
                } catch {
                    throw RuntimeError("\(file): \(error.message)")
                }
                result.keys[index].privateKeyPEM = pem
            } else {
                let key: RSAPrivateKey
                do {
                    key = try RSAPrivateKey.generate(bits: 2048)
                } catch {
                    throw RuntimeError("cannot generate a signing key: \(error.message)")
                }
                let pem = key.pemPKCS8()
                try FileSystem.write(pem, to: file, mode: 0o600, exclusive: true)
                log.note("generated signing key \(kid) in \(file)")
                result.keys[index].privateKeyPEM = pem
            }
        }
        return result
    }
}

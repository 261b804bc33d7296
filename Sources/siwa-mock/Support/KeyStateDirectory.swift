import JOSE
import SIWACore
import ScenarioModel

/// `--state-dir`: the scenario's signing keys live there as `signing-<kid>.pem` (mode 0600), created on
/// first use, so a restarted mock publishes the same JWKS and honours tokens it signed before.
///
/// The directory and the key files are checked before use (`StateDirectory`).
///
/// Without a state directory the scenario's own PEMs are used (the built-in scenario ships fixed test
/// keys, so startup never generates a key).
struct KeyStateDirectory {
    var path: String

    /// Replaces each signing key's PEM with the one stored for its `kid`, generating and storing a new
    /// RSA-2048 key where none is stored yet.
    func apply(to keys: SigningKeySet, log: RequestLog) throws(RuntimeError) -> SigningKeySet {
        let directory = try StateDirectory(path, role: "state directory")
        var result = keys
        for index in result.keys.indices {
            let kid = result.keys[index].kid
            guard kid.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw RuntimeError("signing key id '\(kid)' cannot be used as a file name in --state-dir")
            }
            let name = "signing-\(kid).pem"
            if let pem = try directory.read(name, secret: true) {
                do {
                    _ = try RSAPrivateKey(pem: pem)
                } catch {
                    throw RuntimeError("\(directory.file(name)): \(error.message)")
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
                try directory.write(pem, to: name, mode: 0o600, replace: false)
                log.note("generated signing key \(kid) in \(directory.file(name))")
                result.keys[index].privateKeyPEM = pem
            }
        }
        return result
    }
}

import TLS

#if canImport(Glibc)
    import Glibc
#endif

/// The TLS files in the state directory: a local CA (`ca.pem`, `ca-key.pem`) created once and reused
/// across restarts, and the server certificate it issued (`tls-cert.pem`, `tls-key.pem`), reissued when
/// a `--tls-name` is added or it nears expiry. Keys are mode 0600; `ca.pem` is 0644 (public).
struct TLSStateDirectory {
    var path: String

    static let caFile = "ca.pem"
    static let caKeyFile = "ca-key.pem"
    static let certificateFile = "tls-cert.pem"
    static let keyFile = "tls-key.pem"
    /// Names every generated server certificate covers, before any `--tls-name`.
    static let defaultNames = ["appleid.apple.com", "localhost", "127.0.0.1", "::1"]
    /// Reissue the server certificate when it expires within 30 days.
    static let renewalMargin = 30 * 86_400

    /// `--state-dir` when given, else `$XDG_STATE_HOME/siwa-mock` or `~/.local/state/siwa-mock`.
    static func resolve(_ stateDirectory: String?) -> String {
        if let stateDirectory { return stateDirectory }
        if let xdg = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") {
            return "\(xdg)/siwa-mock"
        }
        let home = getenv("HOME").map { String(cString: $0) } ?? "."
        return "\(home.isEmpty ? "." : home)/.local/state/siwa-mock"
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The stored CA, or a new one (stored) when there is none yet.
    func authority(log: RequestLog? = nil) throws(RuntimeError) -> TLSCertificateAuthority {
        let certificateFile = file(Self.caFile)
        let keyFile = file(Self.caKeyFile)
        if FileSystem.exists(certificateFile) || FileSystem.exists(keyFile) {
            let certificate = try FileSystem.readText(certificateFile, limit: 64 * 1024)
            let key = try FileSystem.readText(keyFile, limit: 64 * 1024)
            do {
                return try TLSCertificateAuthority(certificatePEM: certificate, privateKeyPEM: key)
            } catch {
                throw RuntimeError("\(certificateFile): \(error.message) (delete both CA files to create a new CA)")
            }
        }
        try FileSystem.makeDirectory(path)
        let authority: TLSCertificateAuthority
        do {
            authority = try TLSCertificateAuthority.generate()
        } catch {
            throw RuntimeError("cannot create a local CA: \(error.message)")
        }
        try FileSystem.write(authority.privateKeyPEM, to: keyFile, mode: 0o600, exclusive: true)
        // The CA certificate is public (clients must read it to trust it): 0644; every key is 0600.
        try FileSystem.write(authority.certificatePEM, to: certificateFile, mode: 0o644, exclusive: true)
        log?.note("created local CA \(certificateFile) (trust it in the test environment; see `siwa-mock ca`)")
        return authority
    }

    /// The server certificate for `names` (plus the defaults), reusing the stored one when it fits.
    func serverCredentials(extraNames: [String], log: RequestLog) throws(RuntimeError) -> TLSCredentials {
        let authority = try authority(log: log)
        var names = Self.defaultNames
        for name in extraNames where !names.contains(name) { names.append(name) }
        let certificateFile = file(Self.certificateFile)
        let keyFile = file(Self.keyFile)
        if FileSystem.exists(certificateFile) && FileSystem.exists(keyFile) {
            let certificate = try FileSystem.readText(certificateFile, limit: 64 * 1024)
            let key = try FileSystem.readText(keyFile, limit: 64 * 1024)
            if authority.canReuse(certificate, covering: names, forAnother: Self.renewalMargin) {
                return TLSCredentials(certificateChainPEM: certificate, privateKeyPEM: key)
            }
        }
        let credentials: TLSCredentials
        do {
            credentials = try authority.issueServerCertificate(for: names)
        } catch {
            throw RuntimeError("cannot issue the TLS certificate: \(error.message)")
        }
        try FileSystem.write(credentials.privateKeyPEM, to: keyFile, mode: 0o600, exclusive: false)
        try FileSystem.write(credentials.certificateChainPEM, to: certificateFile, mode: 0o600, exclusive: false)
        log.note("issued TLS certificate \(certificateFile) for \(names.joined(separator: ", "))")
        return credentials
    }
}

import TLS

#if canImport(Glibc)
    import Glibc
#endif

/// The TLS files in the state directory: a local CA (`ca.pem`, `ca-key.pem`) created once and reused
/// across restarts, and the server certificate it issued (`tls-cert.pem`, `tls-key.pem`), reissued when
/// a `--tls-name` is added or it nears expiry. Keys are mode 0600; `ca.pem` is 0644 (public). The
/// directory and every file read back are checked first (`StateDirectory`).
struct TLSStateDirectory {
    var path: String

    static let caFile = "ca.pem"
    static let caKeyFile = "ca-key.pem"
    static let certificateFile = "tls-cert.pem"
    static let keyFile = "tls-key.pem"
    /// Names every generated server certificate covers, before any `--tls-name`.
    /// `appleid.cdn-apple.com` serves Sign in with Apple JS, so a page can keep Apple's script URL (docs/browser.md).
    static let defaultNames = ["appleid.apple.com", "appleid.cdn-apple.com", "localhost", "127.0.0.1", "::1"]
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

    /// The directory, created if missing and checked (`StateDirectory`).
    func open() throws(RuntimeError) -> StateDirectory { try StateDirectory(path, role: "TLS directory") }

    /// The stored CA, or a new one (stored) when there is none yet.
    func authority(log: RequestLog? = nil) throws(RuntimeError) -> TLSCertificateAuthority {
        try authority(in: try open(), log: log)
    }

    func authority(in directory: StateDirectory, log: RequestLog?) throws(RuntimeError) -> TLSCertificateAuthority {
        let certificateFile = file(Self.caFile)
        if directory.contains(Self.caFile) || directory.contains(Self.caKeyFile) {
            guard let certificate = try directory.read(Self.caFile, secret: false),
                let key = try directory.read(Self.caKeyFile, secret: true)
            else {
                throw RuntimeError(
                    "\(path) holds only one of \(Self.caFile) and \(Self.caKeyFile) (delete it to create a new CA)")
            }
            do {
                return try TLSCertificateAuthority(certificatePEM: certificate, privateKeyPEM: key)
            } catch {
                throw RuntimeError("\(certificateFile): \(error.message) (delete both CA files to create a new CA)")
            }
        }
        let authority: TLSCertificateAuthority
        do {
            authority = try TLSCertificateAuthority.generate()
        } catch {
            throw RuntimeError("cannot create a local CA: \(error.message)")
        }
        try directory.write(authority.privateKeyPEM, to: Self.caKeyFile, mode: 0o600, replace: false)
        // The CA certificate is public (clients must read it to trust it): 0644; every key is 0600.
        try directory.write(authority.certificatePEM, to: Self.caFile, mode: 0o644, replace: false)
        log?.note("created local CA \(certificateFile) (trust it in the test environment; see `siwa-mock ca`)")
        return authority
    }

    /// The server certificate for `names` (plus the defaults), reusing the stored one when it fits.
    func serverCredentials(extraNames: [String], log: RequestLog) throws(RuntimeError) -> TLSCredentials {
        let directory = try open()
        let authority = try authority(in: directory, log: log)
        var names = Self.defaultNames
        for name in extraNames where !names.contains(name) { names.append(name) }
        if let certificate = try directory.read(Self.certificateFile, secret: false),
            let key = try directory.read(Self.keyFile, secret: true),
            authority.canReuse(certificate, covering: names, forAnother: Self.renewalMargin)
        {
            return TLSCredentials(certificateChainPEM: certificate, privateKeyPEM: key)
        }
        let credentials: TLSCredentials
        do {
            credentials = try authority.issueServerCertificate(for: names)
        } catch {
            throw RuntimeError("cannot issue the TLS certificate: \(error.message)")
        }
        try directory.write(credentials.privateKeyPEM, to: Self.keyFile, mode: 0o600, replace: true)
        try directory.write(credentials.certificateChainPEM, to: Self.certificateFile, mode: 0o600, replace: true)
        log.note("issued TLS certificate \(file(Self.certificateFile)) for \(names.joined(separator: ", "))")
        return credentials
    }
}

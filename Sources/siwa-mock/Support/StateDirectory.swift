#if canImport(Glibc)
    import Glibc
#endif

/// A directory the mock keeps private keys in (`--state-dir`, `--tls-dir`), opened once and checked
/// before anything in it is trusted: whoever can write to it could plant a signing key (then tokens
/// with any claims verify against the published JWKS) or a CA (then clients trust a foreign
/// certificate). See docs/security.md.
///
/// - The directory must belong to this user (or root) and must not be writable by group or others.
/// - Files read back must be regular files (not symlinks, FIFOs or devices) with the same owner, not
///   writable by others, and private keys not readable by others.
/// - Files are written to a temporary name created with `O_CREAT|O_EXCL|O_NOFOLLOW` and the final
///   mode, then renamed (or linked, when an existing file must not be replaced): a planted symlink
///   or a pre-created world-readable file is never written through.
final class StateDirectory {
    let path: String
    /// `state directory`, `TLS directory`: how errors name it.
    let role: String
    private let fd: Int32

    /// Opens `path`, creating it (mode 0700, with missing parents) when absent, and checks it.
    init(_ path: String, role: String) throws(RuntimeError) {
        self.path = path
        self.role = role
        if !FileSystem.exists(path) { try FileSystem.makeDirectory(path) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw RuntimeError("cannot open \(role) \(path): \(FileSystem.errorText())") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw RuntimeError("cannot open \(role) \(path): \(FileSystem.errorText())")
        }
        self.fd = fd
        let user = geteuid()
        if info.st_uid != user && info.st_uid != 0 {
            throw RuntimeError(
                "\(role) \(path) belongs to uid \(info.st_uid), not to this user (uid \(user)): its owner could "
                    + "plant keys there. Use a directory you own (e.g. `mkdir -m 700 DIR`), or `chown \(user) \(path)`."
            )
        }
        if info.st_mode & 0o022 != 0 {
            throw RuntimeError(
                "\(role) \(path) is writable by \(Self.others(info.st_mode, 0o020, 0o002)) (mode \(Self.octal(info.st_mode))): "
                    + "anyone with access could plant keys there. Fix it with `chmod go-w \(path)` "
                    + "(or use a directory made with `mkdir -m 700`).")
        }
    }

    deinit { close(fd) }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Whether `name` exists (a symlink counts: reading it then fails with a clear error).
    func contains(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// The text of `name`, or nil when it does not exist. Refuses symlinks and special files, files
    /// owned by another user or writable by others, and (with `secret`) files readable by others.
    func read(_ name: String, secret: Bool, limit: Int = 64 * 1024) throws(RuntimeError) -> String? {
        let path = file(name)
        let fd = openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw RuntimeError("\(path) is a symbolic link; the mock reads only files it wrote itself: remove it")
            }
            throw RuntimeError("cannot read \(path): \(FileSystem.errorText())")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw RuntimeError("cannot read \(path): \(FileSystem.errorText())") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw RuntimeError("\(path) is \(FileSystem.kind(of: info.st_mode)), not a regular file: remove it")
        }
        let user = geteuid()
        if info.st_uid != user && info.st_uid != 0 {
            throw RuntimeError(
                "\(path) belongs to uid \(info.st_uid), not to this user (uid \(user)): remove it (it is recreated)")
        }
        if info.st_mode & 0o022 != 0 {
            throw RuntimeError(
                "\(path) is writable by \(Self.others(info.st_mode, 0o020, 0o002)) (mode \(Self.octal(info.st_mode))): "
                    + "fix it with `chmod go-w \(path)`, or remove it")
        }
        if secret && info.st_mode & 0o044 != 0 {
            throw RuntimeError(
                "\(path) is a private key readable by \(Self.others(info.st_mode, 0o040, 0o004)) "
                    + "(mode \(Self.octal(info.st_mode))): fix it with `chmod 600 \(path)`")
        }
        let bytes = try FileSystem.readAll(fd, path: path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RuntimeError("\(path): not UTF-8 text")
        }
        return text
    }

    /// Writes `name` with exactly `mode` through a temporary file. With `replace: false` an existing
    /// `name` (even a dangling symlink) is an error and stays untouched.
    func write(_ text: String, to name: String, mode: mode_t, replace: Bool) throws(RuntimeError) {
        let path = file(name)
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let out = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard out >= 0 else { throw RuntimeError("cannot write \(path): \(FileSystem.errorText())") }
        var written = false
        defer {
            close(out)
            if !written { unlinkat(fd, temporary, 0) }
        }
        // The umask may have cleared bits (ca.pem is 0644); set exactly `mode`.
        guard fchmod(out, mode) == 0 else { throw RuntimeError("cannot write \(path): \(FileSystem.errorText())") }
        try FileSystem.writeAll(text, to: out, path: path)
        guard fsync(out) == 0 else { throw RuntimeError("cannot write \(path): \(FileSystem.errorText())") }
        if replace {
            guard renameat(fd, temporary, fd, name) == 0 else {
                throw RuntimeError("cannot write \(path): \(FileSystem.errorText())")
            }
            written = true
        } else {
            guard linkat(fd, temporary, fd, name, 0) == 0 else {
                if errno == EEXIST { throw RuntimeError("\(path) appeared while it was being written: remove it") }
                throw RuntimeError("cannot write \(path): \(FileSystem.errorText())")
            }
        }
    }

    /// `group`, `others` or `group and others` for the bits of `mode` among `group`/`other`.
    static func others(_ mode: mode_t, _ group: mode_t, _ other: mode_t) -> String {
        switch (mode & group != 0, mode & other != 0) {
        case (true, true): "group and others"
        case (true, false): "group"
        default: "others"
        }
    }

    /// `0777`.
    static func octal(_ mode: mode_t) -> String {
        let text = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}

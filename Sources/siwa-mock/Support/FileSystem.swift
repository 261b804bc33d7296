#if canImport(Glibc)
    import Glibc
#endif

/// The executable's only door to files (docs/architecture.md, "Modules": the executable reads files, the
/// modules below it do not).
enum FileSystem {
    /// Reads a UTF-8 text file; see `read(_:limit:regularOnly:)`.
    static func readText(_ path: String, limit: Int = 4 * 1024 * 1024, regularOnly: Bool = true)
        throws(RuntimeError) -> String
    {
        let bytes = try read(path, limit: limit, regularOnly: regularOnly)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RuntimeError("cannot read \(path): not UTF-8 text")
        }
        return text
    }

    /// Reads a whole file of at most `limit` bytes. It is opened non-blocking, and with `regularOnly`
    /// (scenario and key files) anything but a regular file is refused before a byte is read, so a FIFO
    /// or a device can never block the reader. Command-line inputs a user names directly
    /// (`client-secret --key <(…)`) pass `regularOnly: false`.
    static func read(_ path: String, limit: Int, regularOnly: Bool = true) throws(RuntimeError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw RuntimeError("cannot read \(path): \(errorText())") }
        defer { close(fd) }
        if regularOnly {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw RuntimeError("cannot read \(path): \(errorText())") }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw RuntimeError("cannot read \(path): \(kind(of: info.st_mode)), not a regular file")
            }
        }
        return try readAll(fd, path: path, limit: limit)
    }

    /// Reads `fd` to its end, failing once more than `limit` bytes arrive.
    static func readAll(_ fd: Int32, path: String, limit: Int) throws(RuntimeError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw RuntimeError("cannot read \(path): \(errorText())")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
            if result.count > limit { throw RuntimeError("cannot read \(path): larger than \(limit) bytes") }
        }
        return result
    }

    /// `a FIFO`, `a directory`, … for errors about files that are not regular.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    /// Writes a new file with `mode` (0600 for keys). With `exclusive`, an existing file is an error, never overwritten.
    static func write(_ text: String, to path: String, mode: mode_t = 0o600, exclusive: Bool) throws(RuntimeError) {
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC
        flags |= exclusive ? O_EXCL : O_TRUNC
        let fd = open(path, flags, mode)
        guard fd >= 0 else {
            if errno == EEXIST { throw RuntimeError("\(path) already exists; choose another --out or remove it") }
            throw RuntimeError("cannot write \(path): \(errorText())")
        }
        defer { close(fd) }
        try writeAll(text, to: fd, path: path)
        _ = fchmod(fd, mode)
    }

    /// Writes every byte of `text` to `fd`.
    static func writeAll(_ text: String, to fd: Int32, path: String) throws(RuntimeError) {
        var bytes = Array(text.utf8)
        defer { bytes.removeAll() }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw RuntimeError("cannot write \(path): \(errorText())")
            }
            offset += written
        }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates a directory (and missing parents) with mode 0700.
    static func makeDirectory(_ path: String) throws(RuntimeError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw RuntimeError("cannot create directory \(prefix): \(errorText())")
            }
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}

/// Wall-clock seconds since the epoch.
enum WallClock {
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec)
    }
}

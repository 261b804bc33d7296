#if canImport(Glibc)
    import Glibc
#endif

/// The executable's only door to files (design.md: only the executable reads files).
enum FileSystem {
    static func readText(_ path: String, limit: Int = 4 * 1024 * 1024) throws(RuntimeError) -> String {
        let bytes = try read(path, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RuntimeError("\(path): not UTF-8 text")
        }
        return text
    }

    static func read(_ path: String, limit: Int) throws(RuntimeError) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; then only regular files are read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw RuntimeError("cannot read \(path): \(errorText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw RuntimeError("cannot read \(path): not a regular file")
        }
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
            if result.count > limit { throw RuntimeError("\(path) is larger than \(limit) bytes") }
        }
        return result
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
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw RuntimeError("cannot write \(path): \(errorText())")
            }
            offset += written
        }
        bytes.removeAll()
        _ = fchmod(fd, mode)
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

#if canImport(Glibc)
    import Glibc
#endif

/// Writes whole lines to stdout/stderr with one `write(2)` each, so lines from several threads never interleave.
struct Console: Sendable {
    func out(_ text: String, terminator: String = "\n") { write(1, text + terminator) }
    func err(_ text: String, terminator: String = "\n") { write(2, text + terminator) }

    /// Writes bytes already holding whole lines to stderr.
    func err(bytes: [UInt8]) { write(2, bytes) }

    private func write(_ fd: Int32, _ text: String) { write(fd, Array(text.utf8)) }

    private func write(_ fd: Int32, _ bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

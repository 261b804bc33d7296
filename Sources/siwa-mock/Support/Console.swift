#if canImport(Glibc)
    import Glibc
#endif

/// Writes whole lines to stdout/stderr with one `write(2)` each, so lines from several threads never interleave.
struct Console: Sendable {
    func out(_ text: String, terminator: String = "\n") { write(1, text + terminator) }
    func err(_ text: String, terminator: String = "\n") { write(2, text + terminator) }

    private func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
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

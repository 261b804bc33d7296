#if canImport(Glibc)
    import Glibc
#endif

extension RPCheckRunner {
    /// Waits between polls of the mock's delivery records (a command-line loop, as `health --wait` does).
    static func pause(milliseconds: Int) { usleep(UInt32(milliseconds * 1000)) }
}

import CSys

/// Facts about the machine the server runs on.
package enum System {
    /// Online CPU cores (at least 1) when first asked; the default number of event loops. Read once:
    /// glibc reads /sys/devices/system/cpu/online on every `sysconf` call, and start-up asked four times.
    package static let coreCount: Int = Int(csys_core_count())
}

import CSys

/// Facts about the machine the server runs on.
public enum System {
    /// Online CPU cores (at least 1); the default number of event loops.
    public static var coreCount: Int { Int(csys_core_count()) }
}

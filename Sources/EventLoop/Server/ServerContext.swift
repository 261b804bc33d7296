import Synchronization

/// What every event loop of one server shares: configuration, service, and two atomics.
final class ServerContext: Sendable {
    let configuration: ListenerConfiguration
    let service: any ConnectionService
    let onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)?
    /// Open connections across all loops, for `maxConnections`.
    let connectionCount = Atomic<Int>(0)
    /// Set by `shutdown()` before the loops are woken.
    let stopping = Atomic<Bool>(false)

    init(
        configuration: ListenerConfiguration, service: any ConnectionService,
        onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)?
    ) {
        self.configuration = configuration
        self.service = service
        self.onDiagnostic = onDiagnostic
    }
}

import Synchronization

/// What every event loop of one server shares: configuration, responder, and two atomics.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?
    let onDiagnostic: (@Sendable (HTTPServerDiagnostic) -> Void)?
    /// Open connections across all loops, for `maxConnections`.
    let connectionCount = Atomic<Int>(0)
    /// Set by `shutdown()` before the loops are woken.
    let stopping = Atomic<Bool>(false)

    init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?,
        onDiagnostic: (@Sendable (HTTPServerDiagnostic) -> Void)? = nil
    ) {
        self.onDiagnostic = onDiagnostic
        self.configuration = configuration
        self.responder = responder
        self.onExchanges = onExchanges
    }

    var parserLimits: HTTPRequestParser.Limits {
        HTTPRequestParser.Limits(
            maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
    }
}

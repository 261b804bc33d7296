import Synchronization

/// What every event loop of one server shares: configuration, responder, and two atomics.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    /// Set on a server for another protocol: connections get its sessions instead of the HTTP parser.
    let stream: (any StreamService)?
    let onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?
    let onDiagnostic: (@Sendable (HTTPServerDiagnostic) -> Void)?
    /// Open connections across all loops, for `maxConnections`.
    let connectionCount = Atomic<Int>(0)
    /// Set by `shutdown()` before the loops are woken.
    let stopping = Atomic<Bool>(false)

    init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?,
        onDiagnostic: (@Sendable (HTTPServerDiagnostic) -> Void)? = nil, stream: (any StreamService)? = nil
    ) {
        self.stream = stream
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

/// The responder of a stream server: its connections never reach the HTTP parser, so it is never
/// asked; if it were, the answer says so instead of pretending.
struct UnreachableResponder: HTTPResponder {
    func respond(to request: HTTPRequest) -> HTTPResponse {
        HTTPResponse.plainText(status: .internalServerError, "this port does not speak HTTP")
    }
}

import EventLoop

extension EventLoopServer {
    /// An HTTP/1.1 server answering with `responder`.
    /// - Parameters:
    ///   - onExchanges: called on a loop thread with the exchanges that loop finished during one pass
    ///     over its ready events (one call per batch, so a request log can write them with one syscall).
    ///     Nil skips the per-exchange bookkeeping entirely.
    package convenience init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?,
        onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)? = nil
    ) {
        self.init(
            configuration: configuration.listener,
            service: HTTPService(configuration: configuration, responder: responder, onExchanges: onExchanges),
            onDiagnostic: onDiagnostic)
    }

    /// An HTTP server that reports each finished exchange on its own.
    package convenience init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        onExchange: (@Sendable (HTTPExchangeRecord) -> Void)? = nil,
        onDiagnostic: (@Sendable (ConnectionDiagnostic) -> Void)? = nil
    ) {
        var batch: (@Sendable ([HTTPExchangeRecord]) -> Void)? = nil
        if let onExchange {
            batch = { records in
                for record in records { onExchange(record) }
            }
        }
        self.init(configuration: configuration, responder: responder, onExchanges: batch, onDiagnostic: onDiagnostic)
    }
}

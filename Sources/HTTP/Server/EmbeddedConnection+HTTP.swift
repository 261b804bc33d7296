import EventLoop

extension EmbeddedConnection {
    /// An HTTP/1.1 connection answered by `responder` with the server's own session, fed by a test:
    /// bytes in, bytes out and a clock, no socket (`EmbeddedConnection`).
    package convenience init(
        http configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)? = nil
    ) {
        self.init(
            service: HTTPService(configuration: configuration, responder: responder, onExchanges: onExchanges),
            idleTimeoutMilliseconds: configuration.listener.idleTimeoutMilliseconds,
            handshakeTimeoutMilliseconds: configuration.listener.handshakeTimeoutMilliseconds)
    }
}

import EventLoop

/// An HTTP server's listener and HTTP's own limits. Defaults are the documented ones (docs/limits.md).
package struct HTTPServerConfiguration: Sendable {
    /// Address, event loops, connection limit, idle and handshake timeouts, TLS (HTTPS).
    package var listener = ListenerConfiguration()
    package var maxHeaderBytes: Int = 16 * 1024
    package var maxBodyBytes: Int = 1024 * 1024
    /// Time allowed for a request head once its first bytes arrived (a TLS handshake has the listener's
    /// `handshakeTimeoutMilliseconds`).
    package var headerTimeoutMilliseconds: Int = 10_000
    /// Time allowed for a request body once the head is complete.
    package var bodyTimeoutMilliseconds: Int = 10_000
    /// Exchanges answered with a lower status are not recorded for `onExchanges`: a request log at
    /// `warn` writes only 5xx lines, and building a record per request it drops cost ~8 % of a
    /// `GET /auth/keys` (bench/RESULTS.md). 0 records every exchange.
    package var recordedStatusFloor: Int = 0

    package init() {}
}

import TLS

/// A line-oriented protocol (SMTP) served on the event loops: the loop makes every syscall, the
/// session only turns received bytes into bytes to send (sans-I/O).
///
/// A server built with a `StreamService` gives each accepted connection its own session; plaintext
/// reaches `receive(_:)` in order (decrypted first after `.startTLS`), and each call's output is
/// queued, encrypted when TLS is on, before the next call.
package protocol StreamService: Sendable {
    /// A session for a new connection from `remoteAddress`.
    func makeSession(remoteAddress: String) -> any StreamSession
    /// What a connection refused at the connection limit gets before it is closed (e.g. SMTP 421).
    var overCapacityReply: [UInt8] { get }
}

/// One connection's protocol state. Used only on its loop's thread.
package protocol StreamSession: AnyObject {
    /// What to send as soon as the connection is accepted (a greeting).
    func open() -> StreamOutput
    /// Plaintext received from the peer, in order.
    func receive(_ bytes: UnsafeRawBufferPointer) -> StreamOutput
    /// The connection's deadline passed (`ListenerConfiguration.idleTimeoutMilliseconds` without a
    /// reply, or the STARTTLS handshake's `handshakeTimeoutMilliseconds`): the last words before the
    /// loop closes it.
    func timedOut() -> [UInt8]
}

/// Bytes to send and what the loop does next.
package struct StreamOutput {
    /// What happens after `bytes` are queued.
    package enum Next {
        /// Keep reading. The idle deadline starts over only when a reply is sent, so a client
        /// dribbling a command or message cannot stretch it forever.
        case proceed
        /// Send `bytes`, then close (lingering, like an HTTP `Connection: close`).
        case close
        /// Send `bytes` in plaintext, then speak TLS with this context (SMTP STARTTLS, RFC 3207 §4).
        /// Bytes the peer sent after the command in the same read are discarded (RFC 3207 §4.2).
        case startTLS(TLSServerContext)
    }

    package var bytes: [UInt8]
    package var next: Next

    package init(bytes: [UInt8] = [], next: Next = .proceed) {
        self.bytes = bytes
        self.next = next
    }
}

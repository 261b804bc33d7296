import EventLoop
import HTTP
import Mailbox
import SIWACore
import SMTP
import TLS

/// The relay's SMTP front door as a `StreamService`: one `SMTPSession` per connection, deciding
/// through `RelayPolicy`, on the HTTP server's event loops (`EventLoopServer(configuration:stream:)`).
package struct RelaySMTPService: StreamService {
    package struct Options: Sendable {
        /// Name in the greeting, EHLO reply and `Received:` fields.
        package var hostname = "privaterelay.appleid.com"
        package var maxMessageBytes = 10 * 1024 * 1024
        /// Bytes every message still being received may hold together (docs/limits.md): beyond it
        /// DATA is answered `452 4.3.1`.
        package var maxPendingBytes = 64 * 1024 * 1024
        /// With it, STARTTLS is offered with this certificate (the mock's TLS certificate).
        package var tls: TLSServerContext? = nil
        package init() {}
    }

    let policy: RelayPolicy
    let configuration: SMTPSession.Configuration
    let tls: TLSServerContext?

    package init(server: MockServer, options: Options = Options()) {
        policy = RelayPolicy(
            provider: server.apple.provider, mailbox: server.mailbox, journal: server.control.journal,
            hostname: options.hostname)
        var configuration = SMTPSession.Configuration()
        configuration.hostname = options.hostname
        configuration.maxMessageBytes = options.maxMessageBytes
        configuration.offersTLS = options.tls != nil
        configuration.messageBudget = MessageBudget(limit: options.maxPendingBytes)
        self.configuration = configuration
        tls = options.tls
    }

    package func makeSession(remoteAddress: String) -> any StreamSession {
        SMTPStreamSession(
            session: SMTPSession(configuration: configuration, policy: policy, remoteAddress: remoteAddress), tls: tls)
    }

    /// Bytes the messages in progress hold now (tests).
    package var pendingBytes: Int { configuration.messageBudget?.inUse ?? 0 }

    package var overCapacityReply: [UInt8] {
        SMTPReply(421, "4.3.2", "\(configuration.hostname) Error: too many connections, try again later").bytes
    }
}

/// Adapts an `SMTPSession` to the event loop's `StreamSession`.
final class SMTPStreamSession: StreamSession {
    let session: SMTPSession
    let tls: TLSServerContext?

    init(session: SMTPSession, tls: TLSServerContext?) {
        self.session = session
        self.tls = tls
    }

    func open() -> StreamOutput { StreamOutput(bytes: session.greeting()) }

    func receive(_ bytes: UnsafeRawBufferPointer) -> StreamOutput {
        let output = session.receive(bytes)
        switch output.action {
        case .proceed: return StreamOutput(bytes: output.bytes)
        case .close: return StreamOutput(bytes: output.bytes, next: .close)
        case .startTLS:
            guard let tls else { return StreamOutput(bytes: output.bytes, next: .close) }
            return StreamOutput(bytes: output.bytes, next: .startTLS(tls))
        }
    }

    func timedOut() -> [UInt8] { session.timeoutReply() }
}

import EventLoop

/// One connection's HTTP/1.1: the parser, the request being answered, and a response the loop holds
/// (`Delivery.delayed`) or waits for (`Delivery.deferred`). The loop makes every syscall; this answers
/// requests by queueing responses and choosing the connection's phase.
final class HTTPSession: ConnectionSession {
    /// The request being answered, for the exchange record.
    struct Exchange {
        var method: HTTPMethod
        var target: String
        var status: HTTPStatus
        var started: Int64
        var logFields: [String: String] = [:]
    }

    /// How a response finished later (`.parked`) is to be sent: what its request asked for.
    struct Pending {
        var method: HTTPMethod
        var target: String
        var started: Int64
        var includeBody: Bool
        var keepAlive: Bool
        var http10: Bool
    }

    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    let handler: HTTPLoopHandler
    // One connection's state, touched only on its loop's thread with no overlapping access: dynamic
    // exclusivity checks off, as for `Connection`'s fields.
    @exclusivity(unchecked) var parser: HTTPRequestParser
    @exclusivity(unchecked) var exchange: Exchange? = nil
    /// While `.held` (`Delivery.delayed`): the response to send when the hold ends.
    @exclusivity(unchecked) var held: (response: HTTPResponse, includeBody: Bool, keepAliveHeader: Bool)? = nil
    /// While `.parked` (`Delivery.deferred`): the request the awaited response answers.
    @exclusivity(unchecked) var pending: Pending? = nil
    /// The deferred response a parked connection waits for: cancelled when the peer goes away meanwhile.
    @exclusivity(unchecked) var awaited: DeferredResponse? = nil

    init(handler: HTTPLoopHandler, remoteAddress: String) {
        self.handler = handler
        parser = HTTPRequestParser(limits: handler.limits, remoteAddress: remoteAddress)
    }

    var hasPartialInput: Bool { parser.hasPartialRequest }

    func opened(_ connection: Connection, on loop: any ConnectionContext) {}

    func receive(_ bytes: UnsafeRawBufferPointer, on connection: Connection, loop: any ConnectionContext) -> Bool {
        parser.append(bytes)
        return true
    }

    /// Answers every complete buffered request in order until the connection is busy or needs more bytes.
    /// Every caller (`EpollLoop.readable`, the phase changes in `ConnectionContext+Phases`,
    /// `EmbeddedConnection`) calls this only on an open connection in `.reading`, so the state is checked
    /// again only after an answer, which may have closed the connection or made it busy.
    func process(_ connection: Connection, on loop: any ConnectionContext) {
        assert(loop.isOpen(connection) && connection.isReading, "process called on a busy or closed connection")
        repeat {
            switch parser.next() {
            case .needMoreData:
                waitForMoreData(connection, on: loop)
                return
            case .request(let request):
                respond(connection, to: request, on: loop)
            case .reject(let status, let reason):
                reject(connection, status: HTTPStatus(code: status), reason: reason, on: loop)
            }
        } while loop.isOpen(connection) && connection.isReading
    }

    /// Arms the timeout that matches how far the next request has come, and sends 100 Continue if asked.
    func waitForMoreData(_ connection: Connection, on loop: any ConnectionContext) {
        let (sendContinue, progress) = parser.takeWaitingState()
        if sendContinue {
            guard loop.sendInterim(connection, Self.continueResponse) else { return }
        }
        if connection.peerClosed || (loop.isStopping && progress == .idle) {
            loop.close(connection)
        } else if progress == .body {
            if connection.deadlineKind != .body {
                loop.setDeadline(connection, loop.now + handler.bodyTimeout, .body)
            }
        } else if progress == .head {
            if connection.deadlineKind != .header {
                loop.setDeadline(connection, loop.now + handler.headerTimeout, .header)
            }
        }
    }

    /// A request still arriving, or an idle keep-alive connection, ran out of time: close.
    func inputTimedOut(_ connection: Connection, on loop: any ConnectionContext) {
        loop.close(connection)
    }

    func outputWritten(_ connection: Connection, on loop: any ConnectionContext) {
        finishExchange(connection, on: loop)
    }

    func closed() {
        // A parked wait must not outlive its connection.
        if let pending = awaited {
            awaited = nil
            pending.cancel()
        }
    }

    /// Notes the finished exchange; the loop handler hands the batch to `onExchanges` when the pass ends.
    func finishExchange(_ connection: Connection, on loop: any ConnectionContext) {
        guard let exchange else { return }
        self.exchange = nil
        let elapsed = (MonotonicClock.now() - exchange.started) / 1000
        handler.finishedExchanges.append(
            HTTPExchangeRecord(
                method: exchange.method, target: exchange.target, status: exchange.status,
                durationMicroseconds: Int(max(0, elapsed)), remoteAddress: connection.remoteAddress,
                secure: connection.tls != nil, logFields: exchange.logFields))
    }
}

import CSys
import Glibc

extension EventLoop {
    /// Calls the responder and starts delivering its answer the way `Delivery` says.
    func respond(_ connection: Connection, to request: HTTPRequest) {
        let started = context.onExchanges == nil ? now : MonotonicClock.now()
        let response = context.responder.respond(to: request)
        deliver(
            response, on: connection, method: request.method, target: request.target, started: started,
            includeBody: request.method != "HEAD", keepAlive: request.keepAlive, http10: request.version == .http10)
    }

    /// Sends a response the way its `Delivery` says (or waits for a deferred one).
    func deliver(
        _ response: HTTPResponse, on connection: Connection, method: HTTPMethod, target: String, started: Int64,
        includeBody: Bool, keepAlive: Bool, http10: Bool
    ) {
        if case .deferred(let pending) = response.delivery {
            connection.phase = .awaiting(
                method: method, target: target, started: started, includeBody: includeBody, keepAlive: keepAlive,
                http10: http10)
            // Only the peer's close is watched (pipelined input waits): it cancels a parked wait.
            setInterest(connection, csys_EPOLLRDHUP)
            connection.awaited = pending
            connection.deadline = .max
            let (inbox, fd, serial) = (inbox, connection.fd, connection.serial)
            pending.whenFulfilled { inbox.post(LoopInbox.Item(fd: fd, serial: serial, response: $0)) }
            return
        }
        if !keepAlive || response.asksToClose { connection.closeAfterWrite = true }
        let keepAliveHeader = http10 && !connection.closeAfterWrite
        connection.exchange = Connection.Exchange(
            method: method, target: target, status: response.status, started: started, logFields: response.logFields)

        switch response.delivery {
        case .deferred:
            // A deferred response cannot finish as another deferred one: answer 500 rather than hang.
            send(
                HTTPResponse.plainText(status: .internalServerError, "internal error"), on: connection,
                includeBody: includeBody, keepAliveHeader: keepAliveHeader)
        case .normal:
            send(response, on: connection, includeBody: includeBody, keepAliveHeader: keepAliveHeader)
        case .delayed(let milliseconds):
            connection.phase = .delayed(response, includeBody: includeBody, keepAliveHeader: keepAliveHeader)
            setInterest(connection, 0)
            setDeadline(connection, now + MonotonicClock.nanoseconds(milliseconds: milliseconds), .delayedResponse)
        case .reset:
            finishExchange(connection)
            Syscall.setResetOnClose(connection.fd)
            close(connection)
        case .closeWithoutResponse:
            finishExchange(connection)
            Syscall.shutdownWrite(connection.fd)
            close(connection)
        case .truncatedBody:
            let close = connection.closeAfterWrite
            guard
                queue(
                    connection,
                    { bytes in
                        let layout = response.serialize(
                            into: &bytes, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
                        bytes.removeLast(layout.bodyLength - layout.bodyLength / 2)
                    })
            else { return }
            connection.closeAfterWrite = true
            connection.phase = .writing
            flushResponse(connection)
        case .slowBody(let chunkSize, let intervalMilliseconds):
            let close = connection.closeAfterWrite
            guard
                queue(
                    connection,
                    {
                        response.serialize(
                            into: &$0, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
                    })
            else { return }
            connection.phase = .dribbling(
                chunkSize: max(1, chunkSize), interval: MonotonicClock.nanoseconds(milliseconds: intervalMilliseconds))
            setInterest(connection, 0)
            dribble(connection)
        }
    }

    /// A malformed request: a small plain-text answer with the precise status, then close.
    func reject(_ connection: Connection, status: HTTPStatus, reason: String) {
        connection.exchange = Connection.Exchange(method: "-", target: "-", status: status, started: now)
        connection.closeAfterWrite = true
        guard
            queue(
                connection,
                { HTTPResponse.plainText(status: status, reason).serialize(into: &$0, includeBody: true, close: true) })
        else { return }
        connection.phase = .writing
        flushResponse(connection)
    }

    /// Sends responses other threads finished, to connections that are still the ones that asked.
    func deliverFinishedResponses() {
        for item in inbox.take() {
            guard Int(item.fd) < connections.count, let connection = connections[Int(item.fd)],
                connection.serial == item.serial,
                case .awaiting(let method, let target, let started, let includeBody, let keepAlive, let http10) =
                    connection.phase
            else { continue }
            connection.awaited = nil
            var response = item.response
            if case .deferred = response.delivery { response.delivery = .normal }
            deliver(
                response, on: connection, method: method, target: target, started: started, includeBody: includeBody,
                keepAlive: keepAlive, http10: http10)
            if isOpen(connection) && connection.isReading { processRequests(connection) }
        }
        reportExchanges()
    }

    /// The delay of `Delivery.delayed` is over: send the response normally.
    func sendDelayedResponse(_ connection: Connection) {
        guard case .delayed(let response, let includeBody, let keepAliveHeader) = connection.phase else { return }
        send(response, on: connection, includeBody: includeBody, keepAliveHeader: keepAliveHeader)
        if isOpen(connection) && connection.isReading { processRequests(connection) }
    }

    /// Serializes the whole response into the connection's output (one write) and starts flushing it.
    private func send(_ response: HTTPResponse, on connection: Connection, includeBody: Bool, keepAliveHeader: Bool) {
        let close = connection.closeAfterWrite
        guard
            queue(
                connection,
                {
                    response.serialize(
                        into: &$0, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
                })
        else { return }
        connection.phase = .writing
        flushResponse(connection)
    }

    /// One tick of `Delivery.slowBody`: at most one chunk, then wait for the next tick.
    func dribble(_ connection: Connection) {
        guard case .dribbling(let chunkSize, let interval) = connection.phase else { return }
        switch flush(connection, limit: chunkSize) {
        case .closed:
            return
        case .complete:
            responseWritten(connection)
            if isOpen(connection) && connection.isReading { processRequests(connection) }
        case .pending:
            setDeadline(connection, now + interval, .dribbleTick)
        }
    }

    /// Notes the finished exchange; `reportExchanges()` hands the batch to `onExchanges`.
    func finishExchange(_ connection: Connection) {
        guard let exchange = connection.exchange else { return }
        connection.exchange = nil
        guard context.onExchanges != nil else { return }
        let elapsed = (MonotonicClock.now() - exchange.started) / 1000
        finishedExchanges.append(
            HTTPExchangeRecord(
                method: exchange.method, target: exchange.target, status: exchange.status,
                durationMicroseconds: Int(max(0, elapsed)), remoteAddress: connection.remoteAddress,
                secure: connection.tls != nil, logFields: exchange.logFields))
    }

    /// Hands the exchanges finished since the last call to `onExchanges`, as one batch.
    func reportExchanges() {
        guard !finishedExchanges.isEmpty, let onExchanges = context.onExchanges else { return }
        onExchanges(finishedExchanges)
        finishedExchanges.removeAll(keepingCapacity: true)
    }
}

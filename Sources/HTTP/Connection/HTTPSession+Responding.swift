import EventLoop

extension HTTPSession {
    /// Calls the responder and starts delivering its answer the way `Delivery` says.
    func respond(_ connection: Connection, to request: consuming HTTPRequest, on loop: any ConnectionContext) {
        let started = handler.onExchanges == nil ? loop.now : MonotonicClock.now()
        let pending = Pending(
            method: request.method, target: request.target, started: started,
            includeBody: request.method != "HEAD", keepAlive: request.keepAlive, http10: request.version == .http10)
        // The request moves into the responder (`HTTPResponder.respond(to:)` consumes it).
        deliver(handler.responder.respond(to: request), on: connection, loop: loop, pending)
    }

    /// Sends a response the way its `Delivery` says (or parks the connection for a deferred one).
    func deliver(_ response: HTTPResponse, on connection: Connection, loop: any ConnectionContext, _ request: Pending) {
        if case .deferred(let awaited) = response.delivery {
            // Only the peer's close is watched (pipelined input waits): it cancels a parked wait.
            let post = loop.park(connection)
            pending = request
            self.awaited = awaited
            awaited.whenFulfilled { post.post($0) }
            return
        }
        if !request.keepAlive || response.asksToClose { connection.closeAfterWrite = true }
        let keepAliveHeader = request.http10 && !connection.closeAfterWrite
        let includeBody = request.includeBody
        if response.status.code >= handler.recordedStatusFloor {
            exchange = Exchange(
                method: request.method, target: request.target, status: response.status, started: request.started,
                logFields: response.logFields)
        }

        switch response.delivery {
        case .deferred:
            // A deferred response cannot finish as another deferred one: answer 500 rather than hang.
            send(
                HTTPResponse.plainText(status: .internalServerError, "internal error"), on: connection, loop: loop,
                includeBody: includeBody, keepAliveHeader: keepAliveHeader)
        case .normal:
            send(response, on: connection, loop: loop, includeBody: includeBody, keepAliveHeader: keepAliveHeader)
        case .delayed(let milliseconds):
            held = (response, includeBody, keepAliveHeader)
            loop.hold(connection, until: loop.now + MonotonicClock.nanoseconds(milliseconds: milliseconds))
        case .reset:
            finishExchange(connection, on: loop)
            loop.reset(connection)
        case .closeWithoutResponse:
            finishExchange(connection, on: loop)
            loop.closeWithoutOutput(connection)
        case .truncatedBody:
            let close = connection.closeAfterWrite
            let queued = loop.queue(connection) { bytes in
                let layout = response.serialize(
                    into: &bytes, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
                bytes.removeLast(layout.bodyLength - layout.bodyLength / 2)
            }
            guard queued else { return }
            connection.closeAfterWrite = true
            connection.phase = .writing
            loop.flushOutput(connection)
        case .slowBody(let chunkSize, let intervalMilliseconds):
            let close = connection.closeAfterWrite
            let queued = loop.queue(connection) {
                response.serialize(into: &$0, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
            }
            guard queued else { return }
            loop.startDribbling(
                connection, chunkSize: chunkSize,
                interval: MonotonicClock.nanoseconds(milliseconds: intervalMilliseconds))
        }
    }

    /// A malformed request: a small plain-text answer with the precise status, then close.
    func reject(_ connection: Connection, status: HTTPStatus, reason: String, on loop: any ConnectionContext) {
        if status.code >= handler.recordedStatusFloor {
            exchange = Exchange(method: "-", target: "-", status: status, started: loop.now)
        }
        connection.closeAfterWrite = true
        loop.write(connection) {
            HTTPResponse.plainText(status: status, reason).serialize(into: &$0, includeBody: true, close: true)
        }
    }

    /// The response another thread finished, for this still-parked connection.
    func resume(with payload: any Sendable, _ connection: Connection, on loop: any ConnectionContext) {
        guard var response = payload as? HTTPResponse, let request = pending else { return }
        awaited = nil
        pending = nil
        if case .deferred = response.delivery { response.delivery = .normal }
        deliver(response, on: connection, loop: loop, request)
    }

    /// The peer closed its side while the response was awaited: a parked wait (a long poll) answers now.
    func peerLeftWhileParked(_ connection: Connection, on loop: any ConnectionContext) {
        let waiting = awaited
        awaited = nil
        waiting?.cancel()
    }

    /// The delay of `Delivery.delayed` is over: send the response normally.
    func holdExpired(_ connection: Connection, on loop: any ConnectionContext) {
        guard let held else { return }
        self.held = nil
        send(
            held.response, on: connection, loop: loop, includeBody: held.includeBody,
            keepAliveHeader: held.keepAliveHeader)
    }

    /// Serializes the whole response into the connection's output (one write) and starts flushing it.
    private func send(
        _ response: HTTPResponse, on connection: Connection, loop: any ConnectionContext, includeBody: Bool,
        keepAliveHeader: Bool
    ) {
        let close = connection.closeAfterWrite
        loop.write(connection) {
            response.serialize(into: &$0, includeBody: includeBody, close: close, keepAliveHeader: keepAliveHeader)
        }
    }
}

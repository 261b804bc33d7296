import EventLoop

/// HTTP/1.1 as the event loop drives it: each connection gets an `HTTPSession` (the parser and the
/// responder), each loop an `HTTPLoopHandler` (the exchanges it finished, reported once per pass).
struct HTTPService: ConnectionService {
    let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?

    func makeLoopHandler() -> any LoopHandler { HTTPLoopHandler(service: self) }

    var overCapacityReply: [UInt8] { Self.overCapacityResponse }
    var plaintextOnTLSReply: [UInt8] { Self.plainHTTPOnTLSResponse }

    static let overCapacityResponse: [UInt8] = {
        var bytes: [UInt8] = []
        HTTPResponse.plainText(status: .serviceUnavailable, "server at connection limit")
            .serialize(into: &bytes, includeBody: true, close: true)
        return bytes
    }()

    static let plainHTTPOnTLSResponse: [UInt8] = {
        var bytes: [UInt8] = []
        HTTPResponse.plainText(status: .badRequest, "This port speaks HTTPS; use https:// or the plain HTTP port.")
            .serialize(into: &bytes, includeBody: true, close: true)
        return bytes
    }()
}

/// One loop's HTTP state: what every session on the loop shares, and the exchanges finished during
/// the current pass over ready events (handed to `onExchanges` as one batch when the pass ends).
final class HTTPLoopHandler: LoopHandler {
    let responder: any HTTPResponder
    let onExchanges: (@Sendable ([HTTPExchangeRecord]) -> Void)?
    let limits: HTTPRequestParser.Limits
    let headerTimeout: Int64
    let bodyTimeout: Int64
    var finishedExchanges: [HTTPExchangeRecord] = []
    /// `HTTPServerConfiguration.recordedStatusFloor`, or `Int.max` without `onExchanges` (nothing recorded).
    let recordedStatusFloor: Int

    init(service: HTTPService) {
        let configuration = service.configuration
        responder = service.responder
        onExchanges = service.onExchanges
        recordedStatusFloor = service.onExchanges == nil ? .max : configuration.recordedStatusFloor
        limits = HTTPRequestParser.Limits(
            maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes)
        headerTimeout = MonotonicClock.nanoseconds(milliseconds: configuration.headerTimeoutMilliseconds)
        bodyTimeout = MonotonicClock.nanoseconds(milliseconds: configuration.bodyTimeoutMilliseconds)
    }

    func makeSession(remoteAddress: String) -> any ConnectionSession {
        HTTPSession(handler: self, remoteAddress: remoteAddress)
    }

    /// Hands the exchanges finished since the last call to `onExchanges`, as one batch.
    func passEnded() {
        guard !finishedExchanges.isEmpty, let onExchanges else { return }
        onExchanges(finishedExchanges)
        finishedExchanges.removeAll(keepingCapacity: true)
    }
}

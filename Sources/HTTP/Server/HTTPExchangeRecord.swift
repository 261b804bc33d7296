/// One completed exchange, for request logs (called after the response is written).
public struct HTTPExchangeRecord: Sendable {
    public var method: HTTPMethod
    public var target: String
    public var status: HTTPStatus
    /// From the complete request to the last response byte handed to the kernel (includes injected delays).
    public var durationMicroseconds: Int
    public var remoteAddress: String
    /// The exchange went over TLS.
    public var secure: Bool = false
    /// The responder's `HTTPResponse.logFields`.
    public var logFields: [String: String] = [:]

    public init(
        method: HTTPMethod, target: String, status: HTTPStatus, durationMicroseconds: Int, remoteAddress: String,
        secure: Bool = false, logFields: [String: String] = [:]
    ) {
        self.secure = secure
        self.logFields = logFields
        self.method = method
        self.target = target
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.remoteAddress = remoteAddress
    }
}

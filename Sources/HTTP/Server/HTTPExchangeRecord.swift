/// One completed exchange, for request logs (called after the response is written).
package struct HTTPExchangeRecord: Sendable {
    package var method: HTTPMethod
    package var target: String
    package var status: HTTPStatus
    /// From the complete request to the last response byte handed to the kernel (includes injected delays).
    package var durationMicroseconds: Int
    package var remoteAddress: String
    /// The exchange went over TLS.
    package var secure: Bool = false
    /// The responder's `HTTPResponse.logFields`.
    package var logFields: [String: String] = [:]

    package init(
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

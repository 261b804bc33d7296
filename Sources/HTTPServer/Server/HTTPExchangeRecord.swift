/// One completed exchange, for request logs (called after the response is written).
public struct HTTPExchangeRecord: Sendable {
    public var method: String
    public var target: String
    public var status: Int
    /// From the complete request to the last response byte handed to the kernel (includes injected delays).
    public var durationMicroseconds: Int
    public var remoteAddress: String

    public init(method: String, target: String, status: Int, durationMicroseconds: Int, remoteAddress: String) {
        self.method = method
        self.target = target
        self.status = status
        self.durationMicroseconds = durationMicroseconds
        self.remoteAddress = remoteAddress
    }
}

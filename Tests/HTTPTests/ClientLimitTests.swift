import Testing

@testable import EventLoop
@testable import HTTP

/// The outgoing client's guards against servers it does not trust (notification receivers): an overall
/// deadline, a cap on reply bytes, and a destination allow-list.
@Suite struct ClientLimitTests {
    static func elapsed(since start: Int64) -> Int64 { (MonotonicClock.now() - start) / 1_000_000 }

    @Test func drippingServerCannotKeepTheExchangePastTheDeadline() throws {
        let body = [UInt8](repeating: 0x61, count: 100)
        // One byte every 50 ms: each read makes progress, so only an overall deadline can end it.
        try withServer(respond: { _ in
            HTTPResponse(status: 200, body: body, delivery: .slowBody(chunkSize: 1, intervalMilliseconds: 50))
        }) { server in
            let start = MonotonicClock.now()
            do {
                let response = try HTTPClient.send(
                    HTTPClientRequest(method: "POST"), host: "127.0.0.1", port: server.port, timeoutMilliseconds: 300)
                Issue.record("expected a timeout, got \(response.status) after \(Self.elapsed(since: start)) ms")
            } catch let error as ClientError {
                #expect(error.kind == .timeout)
            }
            #expect(Self.elapsed(since: start) < 1500)
        }
    }

    @Test func replyBodyIsCutAtTheCap() throws {
        let big = [UInt8](repeating: 0x62, count: 8 << 20)
        try withServer(respond: { _ in HTTPResponse(status: 200, body: big) }) { server in
            let response = try HTTPClient.send(
                HTTPClientRequest(), host: "127.0.0.1", port: server.port, maximumBodyBytes: 64 * 1024)
            #expect(response.status == 200)
            #expect(response.body.count == 64 * 1024 && response.isTruncated)
            let small = try HTTPClient.send(
                HTTPClientRequest(target: "/x"), host: "127.0.0.1", port: server.port, maximumBodyBytes: 16 << 20)
            #expect(small.body.count == big.count && !small.isTruncated)
        }
    }

    @Test func allowListParsesHostsAddressesAndRanges() throws {
        let list = try DestinationAllowList(parsing: "Receiver.Test, 127.0.0.0/8 [::1] fd00::/8,10.1.2.3")
        #expect(
            list.entries == [
                .host("receiver.test"), .range(bytes: [127, 0, 0, 0], prefixLength: 8),
                .range(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], prefixLength: 128),
                .range(bytes: [0xfd] + [UInt8](repeating: 0, count: 15), prefixLength: 8),
                .range(bytes: [10, 1, 2, 3], prefixLength: 32),
            ])
        for bad in ["", " , ", "10.0.0.0/33", "::1/129", "host/8", "exa!mple", "a_b.test", "10.0.0.0/x"] {
            #expect(throws: ClientError.self, "\(bad)") { try DestinationAllowList(parsing: bad) }
        }
    }

    @Test func allowListMatchesTheResolvedAddress() throws {
        let list = try DestinationAllowList(parsing: "receiver.test, 10.0.0.0/8, ::1")
        func permits(_ host: String, _ address: String) throws -> Bool {
            let resolved = try #require(SocketAddress.resolve(host: address, port: 80))
            return list.permits(host: host, address: resolved)
        }
        #expect(try permits("10.200.3.4", "10.200.3.4"))
        #expect(try !permits("11.0.0.1", "11.0.0.1"))
        #expect(try !permits("127.0.0.1", "127.0.0.1"))
        #expect(try permits("[::1]", "::1"))
        #expect(try permits("::ffff:10.1.1.1", "::ffff:10.1.1.1"), "IPv4-mapped IPv6 is checked as IPv4")
        #expect(try permits("RECEIVER.test", "192.0.2.1"), "a listed name is trusted whatever it resolves to")
        #expect(try !permits("other.test", "192.0.2.1"))
    }

    @Test func refusedDestinationIsNeverContacted() throws {
        try withServer { server in
            do {
                _ = try HTTPClient.send(
                    HTTPClientRequest(), host: "127.0.0.1", port: server.port,
                    allowList: try DestinationAllowList(parsing: "10.0.0.0/8"))
                Issue.record("expected .destinationNotAllowed")
            } catch let error as ClientError {
                #expect(error.kind == .destinationNotAllowed)
                #expect(error.message == "127.0.0.1:\(server.port) is not an allowed destination")
            }
        }
    }
}

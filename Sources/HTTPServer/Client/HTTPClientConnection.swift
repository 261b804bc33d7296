import CSys
import Glibc
import TLS

/// One blocking HTTP/1.1 client connection with a timeout per operation and, optionally, an overall
/// deadline and a cap on response body bytes (for requests to servers it does not trust).
///
/// Besides `send(_:)` it exposes raw reads and writes, so tests can pipeline, dribble half a request,
/// or observe how the server ends a connection (EOF, RST, short body).
public final class HTTPClientConnection {
    let fd: Int32
    let hostHeader: String
    /// Per-operation timeout.
    public var timeoutMilliseconds: Int
    /// `CLOCK_MONOTONIC` nanoseconds after which every operation fails with `.timeout`, however much
    /// progress the peer makes (a server dripping one byte a second cannot keep the exchange alive).
    /// Set again per operation by a client that reuses the connection (`RedisConnection`).
    var deadline: Int64?
    var deadlineMilliseconds: Int
    /// Response bodies longer than this are cut here (`HTTPClientResponse.isTruncated`); nil: no cap.
    public var maximumBodyBytes: Int?
    /// Bytes received and not yet consumed by a parsed response.
    var inbound: [UInt8] = []
    var sawEOF = false
    /// With TLS (`https://`): the session every byte goes through (`HTTPClientConnection+TLS.swift`).
    var tls: TLSSession?

    /// Connects to `host:port` (IPv4/IPv6 literal or name).
    /// - Parameters:
    ///   - deadlineMilliseconds: with a value, the whole life of the connection (connect, write, read)
    ///     ends with `.timeout` that long from now. Name resolution is not covered.
    ///   - allowList: refuses (`.destinationNotAllowed`, before connecting) an address it does not permit.
    public init(
        host: String, port: Int, timeoutMilliseconds: Int = 10_000, deadlineMilliseconds: Int? = nil,
        allowList: DestinationAllowList? = nil
    ) throws(HTTPClientError) {
        guard let address = SocketAddress.resolve(host: host, port: port) else {
            throw HTTPClientError(kind: .invalidURL, message: "cannot resolve host '\(host)'")
        }
        if let allowList, !allowList.permits(host: host, address: address) {
            throw HTTPClientError(
                kind: .destinationNotAllowed, message: "\(address.text) is not an allowed destination")
        }
        self.deadline = deadlineMilliseconds.map { MonotonicClock.now() + MonotonicClock.nanoseconds(milliseconds: $0) }
        self.deadlineMilliseconds = deadlineMilliseconds ?? 0
        let fd = socket(address.family, csys_SOCK_STREAM | csys_SOCK_NONBLOCK | csys_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw HTTPClientError.from(SocketError(errno: errno, function: "socket")) }
        self.fd = fd
        self.timeoutMilliseconds = timeoutMilliseconds
        self.hostHeader = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
        Syscall.ignoreSIGPIPE()
        Syscall.setNoDelay(fd)
        // Every stored property is set from here on, so a throw below runs `deinit`, which closes `fd`:
        // closing it here as well would close a descriptor number another thread may already reuse.
        let connected: Bool
        do {
            connected = try Syscall.connect(fd, to: address)
        } catch {
            throw HTTPClientError(
                kind: .connectFailed, message: "connect to \(host):\(port): \(SocketError.message(for: error.errno))")
        }
        if !connected {
            try wait(for: Int16(POLLOUT))
            var soError: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
            if soError != 0 {
                throw HTTPClientError(
                    kind: .connectFailed, message: "connect to \(host):\(port): \(SocketError.message(for: soError))")
            }
        }
    }

    deinit { Syscall.close(fd) }

    /// Writes all bytes (blocking up to the timeout).
    public func write(_ bytes: [UInt8]) throws(HTTPClientError) {
        guard let tls else { return try writeRaw(bytes) }
        try encrypt(bytes, with: tls)
    }

    /// Writes bytes to the socket as they are.
    func writeRaw(_ bytes: [UInt8]) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let outcome: Syscall.Outcome
            do {
                outcome = try Syscall.run("send") {
                    bytes.withUnsafeBytes { raw in
                        Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, csys_MSG_NOSIGNAL)
                    }
                }
            } catch {
                throw HTTPClientError.from(error)
            }
            switch outcome {
            case .done(let count): offset += count
            case .wouldBlock: try wait(for: Int16(POLLOUT))
            }
        }
    }

    /// Writes a string as UTF-8.
    public func write(_ text: String) throws(HTTPClientError) { try write(Array(text.utf8)) }

    /// Reads whatever arrives next into the buffer; returns false at EOF.
    @discardableResult
    func fill() throws(HTTPClientError) -> Bool {
        if let tls { return try fillDecrypted(from: tls) }
        guard let bytes = try readRaw() else {
            sawEOF = true
            return false
        }
        inbound.append(contentsOf: bytes)
        return true
    }

    /// The next bytes from the socket as they are; nil at EOF.
    func readRaw() throws(HTTPClientError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let outcome: Syscall.Outcome
            do {
                outcome = try Syscall.run("read") {
                    chunk.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) }
                }
            } catch {
                throw HTTPClientError.from(error)
            }
            switch outcome {
            case .done(0):
                return nil
            case .done(let count):
                return Array(chunk[0..<count])
            case .wouldBlock:
                try wait(for: Int16(POLLIN))
            }
        }
    }

    /// Everything until the server closes: buffered bytes plus the rest. Throws `.connectionReset` on RST.
    public func readToEnd() throws(HTTPClientError) -> [UInt8] {
        while try fill() {}
        defer { inbound.removeAll() }
        return inbound
    }

    /// Waits up to the timeout (and never past the deadline) for `events` on the socket.
    func wait(for events: Int16) throws(HTTPClientError) {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        while true {
            var wait = timeoutMilliseconds
            if let deadline {
                let left = (deadline - MonotonicClock.now() + 999_999) / 1_000_000
                guard left > 0 else {
                    throw HTTPClientError(
                        kind: .timeout, message: "exchange not complete within \(deadlineMilliseconds) ms")
                }
                wait = min(wait, Int(left))
            }
            let result = poll(&descriptor, 1, Int32(clamping: wait))
            if result > 0 { return }
            if result == 0 {
                if let deadline, MonotonicClock.now() >= deadline { continue }
                throw HTTPClientError(kind: .timeout, message: "no response within \(timeoutMilliseconds) ms")
            }
            if errno != EINTR { throw HTTPClientError.from(SocketError(errno: errno, function: "poll")) }
        }
    }

    /// Whether bytes (or the end of the stream, or an error) are waiting to be read, without waiting: a
    /// connection kept for reuse must have none before the next request is written.
    func hasPendingInput() -> Bool {
        if !inbound.isEmpty || sawEOF { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&descriptor, 1, 0)
            if result >= 0 { return result > 0 }
            if errno != EINTR { return true }
        }
    }

    /// Half-closes the connection (the server sees EOF after what was written).
    public func shutdownWrite() {
        Syscall.shutdownWrite(fd)
    }
}

import CSys
import Glibc
import TLS

/// One blocking client connection (optionally TLS) with a timeout per operation and, optionally, an
/// overall deadline, for peers it does not trust. The HTTP client's exchange (`send(_:)`, in the HTTP
/// module) and the Redis client's pipelines (RESP) are built on it.
///
/// Besides those it exposes raw reads and writes, so tests can pipeline, dribble half a request,
/// or observe how the server ends a connection (EOF, RST, short body).
package final class ClientConnection {
    package let fd: Int32
    package let hostHeader: String
    /// Per-operation timeout.
    package var timeoutMilliseconds: Int
    /// `CLOCK_MONOTONIC` nanoseconds after which every operation fails with `.timeout`, however much
    /// progress the peer makes (a server dripping one byte a second cannot keep the exchange alive).
    /// Set again per operation by a client that reuses the connection (`RedisConnection`).
    package var deadline: Int64?
    package var deadlineMilliseconds: Int
    /// Response bodies longer than this are cut here (`HTTPClientResponse.isTruncated`); nil: no cap.
    package var maximumBodyBytes: Int?
    /// Bytes received and not yet consumed by a parsed response.
    package var inbound: [UInt8] = []
    package var sawEOF = false
    /// With TLS (`https://`): the session every byte goes through (`ClientConnection+TLS.swift`).
    var tls: TLSSession?

    /// Connects to `host:port` (IPv4/IPv6 literal or name).
    /// - Parameters:
    ///   - deadlineMilliseconds: with a value, the whole life of the connection (connect, write, read)
    ///     ends with `.timeout` that long from now. Name resolution is not covered.
    ///   - allowList: refuses (`.destinationNotAllowed`, before connecting) an address it does not permit.
    package init(
        host: String, port: Int, timeoutMilliseconds: Int = 10_000, deadlineMilliseconds: Int? = nil,
        allowList: DestinationAllowList? = nil
    ) throws(ClientError) {
        guard let address = SocketAddress.resolve(host: host, port: port) else {
            throw ClientError(.invalidURL, "cannot resolve host '\(host)'")
        }
        if let allowList, !allowList.permits(host: host, address: address) {
            throw ClientError(.destinationNotAllowed, "\(address.text) is not an allowed destination")
        }
        self.deadline = deadlineMilliseconds.map { MonotonicClock.now() + MonotonicClock.nanoseconds(milliseconds: $0) }
        self.deadlineMilliseconds = deadlineMilliseconds ?? 0
        let fd: Int32
        do {
            fd = try Syscall.tcpSocket(family: address.family)
        } catch {
            throw ClientError.from(error)
        }
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
            throw ClientError(.connectFailed, "connect to \(host):\(port): \(SocketError.message(for: error.errno))")
        }
        if !connected {
            try wait(for: Int16(POLLOUT))
            let soError = Syscall.pendingError(fd)
            if soError != 0 {
                throw ClientError(.connectFailed, "connect to \(host):\(port): \(SocketError.message(for: soError))")
            }
        }
    }

    deinit { Syscall.close(fd) }

    /// Writes all bytes (blocking up to the timeout).
    package func write(_ bytes: [UInt8]) throws(ClientError) {
        guard let tls else { return try writeRaw(bytes) }
        try encrypt(bytes, with: tls)
    }

    /// Writes bytes to the socket as they are.
    func writeRaw(_ bytes: [UInt8]) throws(ClientError) {
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
                throw ClientError.from(error)
            }
            switch outcome {
            case .done(let count): offset += count
            case .wouldBlock: try wait(for: Int16(POLLOUT))
            }
        }
    }

    /// Writes a string as UTF-8.
    package func write(_ text: String) throws(ClientError) { try write(Array(text.utf8)) }

    /// Reads whatever arrives next into the buffer; returns false at EOF.
    @discardableResult
    package func fill() throws(ClientError) -> Bool {
        if let tls { return try fillDecrypted(from: tls) }
        guard let bytes = try readRaw() else {
            sawEOF = true
            return false
        }
        inbound.append(contentsOf: bytes)
        return true
    }

    /// The next bytes from the socket as they are; nil at EOF.
    func readRaw() throws(ClientError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let outcome: Syscall.Outcome
            do {
                outcome = try Syscall.run("read") {
                    chunk.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress, raw.count) }
                }
            } catch {
                throw ClientError.from(error)
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
    package func readToEnd() throws(ClientError) -> [UInt8] {
        while try fill() {}
        defer { inbound.removeAll() }
        return inbound
    }

    /// Waits up to the timeout (and never past the deadline) for `events` on the socket.
    func wait(for events: Int16) throws(ClientError) {
        while true {
            var wait = timeoutMilliseconds
            if let deadline {
                let left = (deadline - MonotonicClock.now() + 999_999) / 1_000_000
                guard left > 0 else {
                    throw ClientError(.timeout, "exchange not complete within \(deadlineMilliseconds) ms")
                }
                wait = min(wait, Int(left))
            }
            let outcome: Syscall.PollOutcome
            do {
                outcome = try Syscall.poll(fd, events: events, timeoutMilliseconds: Int32(clamping: wait))
            } catch {
                throw ClientError.from(error)
            }
            switch outcome {
            case .ready: return
            case .interrupted: continue
            case .timedOut:
                if let deadline, MonotonicClock.now() >= deadline { continue }
                throw ClientError(.timeout, "no response within \(timeoutMilliseconds) ms")
            }
        }
    }

    /// Whether bytes (or the end of the stream, or an error) are waiting to be read, without waiting: a
    /// connection kept for reuse must have none before the next request is written.
    package func hasPendingInput() -> Bool {
        if !inbound.isEmpty || sawEOF { return true }
        while true {
            switch try? Syscall.poll(fd, events: Int16(POLLIN), timeoutMilliseconds: 0) {
            case .ready: return true
            case .timedOut: return false
            case .interrupted: continue
            case nil: return true  // an error: the connection is not fit for reuse
            }
        }
    }

    /// Half-closes the connection (the server sees EOF after what was written).
    package func shutdownWrite() {
        Syscall.shutdownWrite(fd)
    }
}

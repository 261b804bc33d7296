import Foundation
import Glibc
import Synchronization

@testable import RESP

/// A Redis that misbehaves on purpose: a loopback listener whose every connection is served on its own
/// thread by `handler`, which reads the client's commands and writes whatever bytes it likes (an extra
/// reply, a reply dripped a byte at a time, a huge one, a refusal). Closed by `stop()` or `deinit`.
/// Each connection has a thread of its own (not Dispatch's global queue, which runs only as many
/// blocked handlers at once as there are cores).
final class FakeRedisServer: @unchecked Sendable {
    // @unchecked: `listener` and `port` are set once in `init`; `connections` is behind its Mutex.
    // Descriptors are closed by the threads that use them, after `stop()` shut them down.
    let listener: Int32
    let port: Int
    let connections = Mutex<[Int32]>([])
    let accepted = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)

    /// One accepted connection, as the handler sees it. It stays open until the client closes it or
    /// `stop()`, whatever the handler does.
    struct Peer {
        let fd: Int32
        /// 0 for the first connection the server accepted, 1 for the next, …
        let index: Int

        /// The next command (its arguments as text), or nil when the client closed the connection.
        func command(_ parser: inout RESPParser) -> [String]? {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if case .value(.array(let parts)) = parser.next() { return parts.compactMap(\.string) }
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                parser.feed(chunk[0..<count])
            }
        }

        func write(_ text: String) { write(Array(text.utf8)) }

        func write(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { raw in
                    Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                }
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    init(_ handler: @escaping @Sendable (Peer) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Int32 in
                guard bind(fd, raw, length) == 0, listen(fd, 16) == 0 else { return -1 }
                return getsockname(fd, raw, &length)
            }
        }
        guard bound == 0 else {
            close(fd)
            throw FakeRedisError()
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else {
                    close(fd)
                    return
                }
                connections.withLock { $0.append(client) }
                let index = accepted.add(1, ordering: .sequentiallyConsistent).oldValue
                Thread.detachNewThread {
                    handler(Peer(fd: client, index: index))
                    // Closed by the thread that used it, once the handler is done (after `stop()` at the latest).
                    var rest = [UInt8](repeating: 0, count: 4096)
                    while rest.withUnsafeMutableBytes({ Glibc.read(client, $0.baseAddress, $0.count) }) > 0 {}
                    self.connections.withLock { open in
                        open.removeAll { $0 == client }
                        close(client)
                    }
                }
            }
        }
    }

    struct FakeRedisError: Error {}

    var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

    func stop() {
        guard stopped.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        connections.withLock { open in for fd in open { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    deinit { stop() }

    /// Answers every command with `$<n>\r\n<last argument>\r\n` (what `ECHO x` answers).
    static func echo(_ peer: Peer, _ command: [String]) {
        let text = command.last ?? ""
        peer.write("$\(text.utf8.count)\r\n\(text)\r\n")
    }
}

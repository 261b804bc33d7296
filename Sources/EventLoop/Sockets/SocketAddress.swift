import Glibc

/// An IPv4 or IPv6 socket address in a `sockaddr_storage`.
package struct SocketAddress: Sendable {
    package var storage = sockaddr_storage()
    package var length: socklen_t = 0

    package init() {}

    package init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    package var family: Int32 { Int32(storage.ss_family) }

    /// Resolves a numeric host or a name (`localhost`) for binding or connecting; prefers IPv4.
    package static func resolve(host: String, port: Int) -> SocketAddress? {
        guard (0...65535).contains(port), !host.isEmpty else { return nil }
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>? = nil
        guard getaddrinfo(literal, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        var chosen: UnsafeMutablePointer<addrinfo>? = nil
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET {
                chosen = entry
                break
            }
            if chosen == nil && entry.pointee.ai_family == AF_INET6 { chosen = entry }
            cursor = entry.pointee.ai_next
        }
        guard let entry = chosen, let addr = entry.pointee.ai_addr else { return nil }
        var result = SocketAddress()
        result.length = entry.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &result.storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: addr, count: Int(entry.pointee.ai_addrlen)))
        }
        return result
    }

    /// The port in host byte order.
    package var port: Int {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: 0
            }
        }
    }

    /// The address without the port: 4 bytes (IPv4) or 16 (IPv6), in network order.
    package var addressBytes: [UInt8] {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                var addr = raw.load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: &addr) { Array($0) }
            case AF_INET6:
                var addr = raw.load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: &addr) { Array($0) }
            default:
                return []
            }
        }
    }

    /// `127.0.0.1:53211` or `[::1]:53211`.
    package var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        return withUnsafeBytes(of: storage) { raw -> String in
            switch family {
            case AF_INET:
                var addr = raw.load(as: sockaddr_in.self).sin_addr
                inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                return "\(Self.string(fromNulTerminated: buffer)):\(port)"
            case AF_INET6:
                var addr = raw.load(as: sockaddr_in6.self).sin6_addr
                inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                return "[\(Self.string(fromNulTerminated: buffer))]:\(port)"
            default:
                return "-"
            }
        }
    }

    package static func string(fromNulTerminated buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    package func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var storage = storage
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// The local address a socket is bound to.
    package static func local(of fd: Int32) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                _ = try? Syscall.check("getsockname") { getsockname(fd, address, &length) }
            }
        }
        return SocketAddress(storage: storage, length: length)
    }
}

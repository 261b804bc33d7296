import Glibc

extension SocketAddress {
    /// 127.0.0.0/8, `::1`, or an IPv4-mapped `::ffff:127.x.y.z`.
    package var isLoopback: Bool {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                return withUnsafeBytes(of: raw.load(as: sockaddr_in.self).sin_addr) { $0[0] == 127 }
            case AF_INET6:
                return withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { address in
                    let bytes = Array(address)
                    if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
                    let mapped = bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF
                    return mapped && bytes[12] == 127
                }
            default:
                return false
            }
        }
    }
}

extension Listener {
    /// Whether `host` resolves, the way the listener resolves it, to a loopback address, so that only
    /// this machine can connect. False for wildcards (`0.0.0.0`, `::`), other addresses and unknown names.
    package static func isLoopback(host: String) -> Bool {
        SocketAddress.resolve(host: host, port: 0)?.isLoopback ?? false
    }
}

import Glibc

/// Where an outgoing client may connect: host names and IP ranges (CIDR), e.g.
/// `localhost, receiver.test, 127.0.0.0/8, 10.1.2.3, ::1, fd00::/8`.
///
/// A host name matches the URL's host exactly (case-insensitive) and trusts what it resolves to; an
/// address or range matches the resolved address, so a name that resolves into a listed range passes
/// too. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is checked as IPv4. See docs/notifications.md.
package struct DestinationAllowList: Sendable, Equatable, CustomStringConvertible {
    enum Entry: Sendable, Equatable {
        case host(String)
        /// Network bytes (4 or 16) and the prefix length in bits.
        case range(bytes: [UInt8], prefixLength: Int)
    }

    let entries: [Entry]
    /// The entries as given, for messages.
    package let description: String

    /// Parses entries separated by commas or spaces.
    /// - Throws: `ClientError(.invalidURL)` naming the first entry that is neither a host name, an
    ///   IP address nor a CIDR range, or when the list is empty.
    package init(parsing text: String) throws(ClientError) {
        let items = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !items.isEmpty else { throw ClientError(.invalidURL, "the allow-list is empty") }
        var entries: [Entry] = []
        for item in items {
            guard let entry = Self.entry(item) else {
                throw ClientError(.invalidURL, "'\(item)' is not a host name, an IP address or a CIDR range")
            }
            entries.append(entry)
        }
        self.entries = entries
        description = items.joined(separator: ", ")
    }

    static func entry(_ item: String) -> Entry? {
        var text = item
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<close]) + text[text.index(after: close)...]
        }
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if let bytes = addressBytes(parts[0]) {
            guard parts.count == 2 else { return .range(bytes: bytes, prefixLength: bytes.count * 8) }
            guard parts[1].utf8.count <= 3, let prefix = Int(parts[1]), (0...(bytes.count * 8)).contains(prefix)
            else { return nil }
            return .range(bytes: bytes, prefixLength: prefix)
        }
        let allowed = "abcdefghijklmnopqrstuvwxyz0123456789-."
        let host = text.lowercased()
        guard parts.count == 1, !host.isEmpty, host.count <= 253, host.allSatisfy(allowed.contains) else { return nil }
        return .host(host)
    }

    /// The 4 or 16 bytes of an IP literal; nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// Whether a connection to `address` (resolved from `host`) is allowed.
    package func permits(host: String, address: SocketAddress) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var bytes = address.addressBytes
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            bytes = Array(bytes[12...])
        }
        return entries.contains { entry in
            switch entry {
            case .host(let allowed): return allowed == name.lowercased()
            case .range(let network, let prefixLength):
                return network.count == bytes.count && Self.matches(bytes, network, prefixLength)
            }
        }
    }

    static func matches(_ address: [UInt8], _ network: [UInt8], _ prefixLength: Int) -> Bool {
        var bits = prefixLength
        for (a, n) in zip(address, network) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
            if a & mask != n & mask { return false }
            bits -= 8
        }
        return true
    }
}

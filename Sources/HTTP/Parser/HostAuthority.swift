/// A `Host` field value read by its grammar, RFC 9110 §7.2 `Host = uri-host [ ":" port ]`, where
/// `uri-host` is RFC 3986 §3.2.2 `host = IP-literal / IPv4address / reg-name` and `port = *DIGIT`
/// (§3.2.3). Anything else — a `#`, `/`, `\`, `?`, space or second `:` in the name — is no host, so a
/// check on the name's suffix cannot be fooled by text after it.
package struct HostAuthority: Sendable, Equatable {
    /// The host as written, lowercased; an IP-literal without its brackets (`::1`).
    package var host: String
    /// Whether `host` was an IP-literal (`[…]`).
    package var isIPLiteral: Bool
    /// The port digits; nil without `:` (an empty port, `host:`, is "" as RFC 3986 allows).
    package var port: String?

    /// Parses `text`; nil when it is not `host [":" port]`.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        var hostEnd = bytes.count
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")),
                Self.isIPLiteralContent(bytes[1..<close])
            else { return nil }
            hostEnd = close + 1
            isIPLiteral = true
            host = String(decoding: bytes[1..<close], as: UTF8.self).lowercased()
        } else {
            hostEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            // IPv4address is a reg-name by its characters too: both are `reg-name` here.
            guard Self.isRegName(bytes[..<hostEnd]) else { return nil }
            isIPLiteral = false
            host = String(decoding: bytes[..<hostEnd], as: UTF8.self).lowercased()
        }
        let rest = bytes[hostEnd...]
        if rest.isEmpty {
            port = nil
        } else {
            guard rest.first == UInt8(ascii: ":"), rest.dropFirst().allSatisfy(Self.isDigit) else { return nil }
            port = String(decoding: rest.dropFirst(), as: UTF8.self)
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) }
    static func isAlpha(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }
    static func isSubDelim(_ byte: UInt8) -> Bool { Array("!$&'()*+,;=".utf8).contains(byte) }

    /// `reg-name = *( unreserved / pct-encoded / sub-delims )`.
    static func isRegName(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard isUnreserved(byte) || isSubDelim(byte) else { return false }
            index += 1
        }
        return true
    }

    /// `IPv6address / IPvFuture` (RFC 3986 §3.2.2), between the brackets.
    static func isIPLiteralContent(_ bytes: ArraySlice<UInt8>) -> Bool {
        if let first = bytes.first, first | 0x20 == UInt8(ascii: "v") {
            // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")), dot > bytes.startIndex + 1,
                bytes[(bytes.startIndex + 1)..<dot].allSatisfy(isHex), dot + 1 < bytes.endIndex
            else { return false }
            return bytes[(dot + 1)...].allSatisfy { isUnreserved($0) || isSubDelim($0) || $0 == UInt8(ascii: ":") }
        }
        return isIPv6(bytes)
    }

    /// RFC 3986's `IPv6address`: eight 16-bit pieces of 1–4 hex digits, at most one `::` standing for
    /// one or more zero pieces, the last two pieces optionally a dotted IPv4address.
    static func isIPv6(_ bytes: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let halves = text.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return false }
        func pieces(_ half: Substring, last: Bool) -> Int? {
            if half.isEmpty { return 0 }
            let groups = half.split(separator: ":", omittingEmptySubsequences: false)
            var count = 0
            for (index, group) in groups.enumerated() {
                if last && index == groups.count - 1 && group.contains(".") {
                    guard isIPv4(group) else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(group.utf8.count), group.utf8.allSatisfy(isHex) else { return nil }
                    count += 1
                }
            }
            return count
        }
        if halves.count == 1 { return pieces(halves[0], last: true) == 8 }
        guard let head = pieces(halves[0], last: false), let tail = pieces(halves[1], last: true) else {
            return false
        }
        return head + tail <= 7
    }

    /// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet` (no leading zeros).
    static func isIPv4(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4
            && octets.allSatisfy { octet in
                (1...3).contains(octet.utf8.count) && octet.utf8.allSatisfy(isDigit)
                    && (octet.utf8.count == 1 || octet.utf8.first != UInt8(ascii: "0")) && Int(octet)! <= 255
            }
    }
}

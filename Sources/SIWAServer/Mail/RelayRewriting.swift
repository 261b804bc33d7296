import SMTP

/// How the relay changes a message it forwards: a `Received:` field on top and the From address
/// replaced by the developer's relay address, so the user's reply goes back through the relay
/// (https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
/// Every other byte is kept as sent.
enum RelayRewriting {
    static func forwarded(
        _ message: MailMessage, original: [UInt8], from: String, relayFrom: String, received: String
    ) -> [UInt8] {
        var out = Array((received + "\r\n").utf8)
        let display = message.field("From").flatMap(MailAddress.displayName(inField:)) ?? from
        let newFrom = Array("From: \"\(display.replacingQuotes)\" <\(relayFrom)>\r\n".utf8)
        var index = 0
        var inFrom = false
        var replaced = false
        while index < message.bodyOffset {
            let lineEnd = original[index..<message.bodyOffset].firstIndex(of: 10).map { $0 + 1 } ?? message.bodyOffset
            let line = original[index..<lineEnd]
            let continuation = line.first == 32 || line.first == 9
            if !continuation {
                inFrom =
                    !replaced && line.count >= 5
                    && String(decoding: line.prefix(5), as: UTF8.self).lowercased() == "from:"
                if inFrom {
                    out += newFrom
                    replaced = true
                }
            }
            if !inFrom { out += line }
            index = lineEnd
        }
        out += original[message.bodyOffset...]
        return out
    }
}

extension String {
    /// Safe inside a quoted display name.
    var replacingQuotes: String {
        String(map { $0 == "\"" || $0 == "\\" || $0 == "\r" || $0 == "\n" ? "'" : $0 })
    }
}

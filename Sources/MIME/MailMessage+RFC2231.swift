extension MailMessage {
    /// The most continuation segments read (`name*0` … `name*63`): RFC 2231 sets no bound, a header line does.
    static let maximumContinuations = 64

    /// A parameter in RFC 2231's forms, as text: `name*` (§4, `charset'language'percent-encoded`), or
    /// continued (§3) as `name*0`, `name*1`, … with each segment plain or, as `name*0*`, `name*1*`,
    /// percent-encoded (only the first carries `charset'language'`; §4.1). Nil when `name` has neither form,
    /// is malformed, or is in a charset other than UTF-8, US-ASCII or ISO-8859-1 (the caller then falls
    /// back to the plain `name=`).
    static func rfc2231Value(named name: String, in parameters: [String: String]) -> String? {
        if let extended = parameters["\(name)*"] {
            guard let (charset, text) = charsetAndText(extended) else { return nil }
            return decoded(percentDecoded(text), charset: charset)
        }
        var charset = "us-ascii"
        var bytes: [UInt8] = []
        var index = 0
        while index < maximumContinuations {
            if let encoded = parameters["\(name)*\(index)*"] {
                var text = Substring(encoded)
                if index == 0 {
                    guard let (first, rest) = charsetAndText(encoded) else { return nil }
                    (charset, text) = (first, rest)
                }
                bytes += percentDecoded(text)
            } else if let plain = parameters["\(name)*\(index)"] {
                bytes += Array(plain.utf8)
            } else {
                break
            }
            index += 1
        }
        return index == 0 ? nil : decoded(bytes, charset: charset)
    }

    /// `charset'language'rest` split into the lowercased charset and the rest; nil without two quotes.
    private static func charsetAndText(_ value: String) -> (String, Substring)? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        return (pieces[0].lowercased(), pieces[2])
    }

    /// `%XX` escapes decoded; other bytes kept (a stray `%` too).
    private static func percentDecoded(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        let text = Array(text.utf8)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "%"), index + 2 < text.count,
                let high = TransferEncoding.hex(text[index + 1]), let low = TransferEncoding.hex(text[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        return bytes
    }

    private static func decoded(_ bytes: [UInt8], charset: String) -> String? {
        if TransferEncoding.isLatin1(charset) { return TransferEncoding.latin1Text(bytes) }
        guard ["utf-8", "utf8", "us-ascii", ""].contains(charset) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

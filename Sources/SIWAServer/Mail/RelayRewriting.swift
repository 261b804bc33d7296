import MIME
import ScenarioModel

/// How the relay changes a message it forwards: a `Received:` field on top and the From address
/// replaced by the developer's relay address, so the user's reply goes back through the relay
/// (https://developer.apple.com/documentation/signinwithapple/communicating-using-the-private-email-relay-service).
/// Every other byte is kept as sent.
enum RelayRewriting {
    static func forwarded(
        _ message: MailMessage, original: [UInt8], from: String, relayFrom: String, received: String
    ) -> [UInt8] {
        var out = Array((received + "\r\n").utf8)
        let phrase = message.field("From").flatMap(MailAddress.phrase(inField:))
        let newFrom = Array("From: \(displayPhrase(phrase, address: from)) <\(relayFrom)>\r\n".utf8)
        var index = 0
        var inFrom = false
        var replaced = false
        while index < message.bodyOffset {
            let lineEnd = original[index..<message.bodyOffset].firstIndex(of: 10).map { $0 + 1 } ?? message.bodyOffset
            let line = original[index..<lineEnd]
            let continuation = line.first == 32 || line.first == 9
            if !continuation {
                inFrom = !replaced && Self.startsWithFromField(line)
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

    /// Whether a header line starts with `From:` in any case (compared as bytes: no other text
    /// lowercases to it).
    static func startsWithFromField(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.count >= 5 else { return false }
        return zip(line.prefix(5), "from:".utf8).allSatisfy { byte, want in
            byte == want || (byte >= 0x41 && byte <= 0x5A && byte + 0x20 == want)
        }
    }

    /// The display name of the rewritten From. A phrase of RFC 2047 encoded words
    /// (`=?utf-8?q?Caf=C3=A9?=`) is kept as written — RFC 2047 §5 forbids quoting them — and so is a
    /// well-formed quoted string; any other name, or the developer's address when there is no name,
    /// becomes a quoted string (RFC 5322 §3.2.4).
    static func displayPhrase(_ phrase: String?, address: String) -> String {
        let atext = "!#$%&'*+-/=?^_`{|}~. \t"
        // A line break inside the new field would start another (a bare CR ends a line for some
        // readers), so no name with a control character is kept as written (`MailMessage+FieldText`).
        if let phrase, MailMessage.isFieldText(phrase) {
            // `"…"` with every inner `"` and `\` escaped (by scalar), so the phrase ends where it seems to.
            if AddrSpec.isQuotedString(Array(phrase.unicodeScalars)) {
                return phrase
            }
            if Self.containsEncodedWordStart(phrase),
                phrase.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || atext.contains($0)) })
            {
                return phrase
            }
        }
        var quoted = "\""
        // By scalar: CR LF is one Character, which a Character comparison with "\r" misses.
        for scalar in (phrase ?? address).unicodeScalars where !MailMessage.breaksLine(scalar) {
            if scalar == "\"" || scalar == "\\" { quoted.unicodeScalars.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\""
    }

    /// `phrase.contains("=?")`, on the bytes when the phrase is ASCII (no grapheme can then join
    /// `?` to what follows).
    static func containsEncodedWordStart(_ phrase: String) -> Bool {
        let bytes = phrase.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return phrase.contains("=?") }
        return zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "=") && $1 == UInt8(ascii: "?") }
    }
}

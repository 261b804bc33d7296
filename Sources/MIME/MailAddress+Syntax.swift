/// The RFC 5321 §4.1.2 `Mailbox` grammar, for envelope paths (SMTP's MAIL and RCPT) and for the
/// addresses read from header fields alike: one rule for both, so a header address never passes
/// where an envelope address would not.
extension MailAddress {
    /// Longest local part and domain (RFC 5321 §4.5.3.1.1-2).
    static let maxLocalPart = 64
    static let maxDomain = 255

    /// `local@domain` with a dot-string or quoted local part and a domain name or address literal.
    package static func isMailbox(_ text: Substring) -> Bool {
        // Every path a client sends is ASCII (the line was checked): decide on its bytes. Characters
        // (grapheme clusters) and Unicode properties are needed only for header text that is not.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ isASCIIMailbox($0) }) ?? nil { return ascii }
        return isMailboxByCharacters(text)
    }

    /// `isMailbox` over Characters, for any text.
    package static func isMailboxByCharacters(_ text: Substring) -> Bool {
        guard let at = text.lastIndex(of: "@") else { return false }
        let local = text[..<at]
        let domain = text[text.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= maxLocalPart, !domain.isEmpty, domain.utf8.count <= maxDomain
        else { return false }
        if local.first == "\"" {
            guard isQuotedLocalPart(local.unicodeScalars) else { return false }
        } else {
            let atext = "!#$%&'*+-/=?^_`{|}~"
            guard local.first != ".", local.last != ".", !local.contains(".."),
                local.allSatisfy({ $0.isASCIILetterOrDigit || atext.contains($0) || $0 == "." })
            else { return false }
        }
        if domain.first == "[" { return domain.last == "]" && domain.count > 2 }
        return domain.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" }
        }
    }

    /// `isMailbox` for ASCII bytes, the same rules decided byte by byte; nil when `bytes` is not ASCII.
    /// (In ASCII a Character is one byte, but for CR LF, which every rule below refuses either way.)
    static func isASCIIMailbox(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var at = -1
        for (index, byte) in bytes.enumerated() {
            if byte >= 0x80 { return nil }
            if byte == UInt8(ascii: "@") { at = index }
        }
        guard at > 0, at <= maxLocalPart, bytes.count - at - 1 > 0, bytes.count - at - 1 <= maxDomain else {
            return false
        }
        let local = UnsafeBufferPointer(rebasing: bytes[..<at])
        let domain = UnsafeBufferPointer(rebasing: bytes[(at + 1)...])
        let quote = UInt8(ascii: "\"")
        let dot = UInt8(ascii: ".")
        if local.first == quote {
            guard isQuotedLocalPart(local.lazy.map { Unicode.Scalar($0) }) else { return false }
        } else {
            guard local.first != dot, local.last != dot else { return false }
            var previous: UInt8 = 0
            for byte in local {
                guard isAlphanumeric(byte) || atextSymbols.contains(byte) || byte == dot else { return false }
                if byte == dot && previous == dot { return false }
                previous = byte
            }
        }
        if domain.first == UInt8(ascii: "[") { return domain.last == UInt8(ascii: "]") && domain.count > 2 }
        var labelLength = 0
        var previous: UInt8 = dot
        for byte in domain {
            if byte == dot {
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
                labelLength = 0
            } else {
                guard isAlphanumeric(byte) || byte == UInt8(ascii: "-") else { return false }
                if labelLength == 0 && byte == UInt8(ascii: "-") { return false }
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        return labelLength > 0 && previous != UInt8(ascii: "-")
    }

    /// RFC 5321 §4.1.2 `Quoted-string = DQUOTE *QcontentSMTP DQUOTE`: `qtextSMTP` (printable ASCII but
    /// `"` and `\`, and space) or a `\` pair with printable ASCII or space; RFC 6531 §3.3 adds UTF-8,
    /// not its controls. Never a CR, LF or NUL: the address is written into header fields.
    static func isQuotedLocalPart<S: Collection<Unicode.Scalar>>(_ scalars: S) -> Bool {
        guard scalars.count >= 2, scalars.first == "\"" else { return false }
        var escaped = false
        var closed = false
        for scalar in scalars.dropFirst() {
            guard !closed, scalar.value >= 0x20, scalar.value != 0x7F, !MailMessage.breaksLine(scalar) else {
                return false
            }
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                closed = true
            }
        }
        return closed
    }

    /// RFC 5322 §3.2.3 atext besides letters and digits.
    static let atextSymbols: Set<UInt8> = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (header values, SMTP arguments).
    package var trimmingSpaces: String {
        // ASCII text (every command line, most header fields): trim bytes, without grapheme breaking.
        let ascii = utf8.withContiguousStorageIfAvailable { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let isSpace = { (byte: UInt8) in byte == 32 || byte == 9 }
            let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
            let end = bytes.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? start
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<Swift.max(start, end)]), as: UTF8.self)
        }
        if let ascii, let ascii { return ascii }
        return trimmingSpacesByCharacters
    }

    /// `trimmingSpaces` over Characters, for any text.
    var trimmingSpacesByCharacters: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

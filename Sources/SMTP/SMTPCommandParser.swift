/// Parses one command line (without its line ending) into a command or the reply that refuses it.
///
/// Verbs are case-insensitive (RFC 5321 §2.4). Unknown verbs get 500, bad arguments 501, unknown
/// MAIL/RCPT parameters 555 (RFC 5321 §4.1.1.11), a SIZE over the limit 552 (RFC 1870 §6).
/// Only ASCII is accepted: SMTPUTF8 is not offered.
package enum SMTPCommandParser {
    package enum Outcome: Sendable, Equatable {
        case command(SMTPCommand)
        case reject(SMTPReply)
    }

    /// Longest local part and domain (RFC 5321 §4.5.3.1.1-2).
    static let maxLocalPart = 64
    static let maxDomain = 255

    package static func parse(_ line: some Collection<UInt8>, maxMessageBytes: Int) -> Outcome {
        guard line.allSatisfy({ $0 >= 0x20 && $0 < 0x7F || $0 == 0x09 }) else {
            return .reject(SMTPReply(500, "5.5.2", "Error: bad character in command"))
        }
        let text = String(decoding: line, as: UTF8.self)
        let verbEnd = text.firstIndex(of: " ") ?? text.endIndex
        let verb = text[..<verbEnd].uppercased()
        let argument = text[verbEnd...].drop(while: { $0 == " " })
        switch verb {
        case "EHLO", "HELO":
            let domain = argument.trimmingSpaces
            guard !domain.isEmpty, !domain.contains(" ") else {
                return .reject(SMTPReply(501, "5.5.4", "Syntax: \(verb) hostname"))
            }
            return .command(verb == "EHLO" ? .ehlo(domain) : .helo(domain))
        case "MAIL":
            return parseMail(argument, maxMessageBytes: maxMessageBytes)
        case "RCPT":
            return parseRcpt(argument)
        case "DATA", "RSET", "QUIT", "STARTTLS":
            guard argument.trimmingSpaces.isEmpty else {
                return .reject(SMTPReply(501, "5.5.4", "Syntax: \(verb) takes no argument"))
            }
            switch verb {
            case "DATA": return .command(.data)
            case "RSET": return .command(.rset)
            case "QUIT": return .command(.quit)
            default: return .command(.startTLS)
            }
        case "NOOP": return .command(.noop)
        case "VRFY": return .command(.vrfy)
        case "HELP": return .command(.help)
        default: return .reject(.notRecognized)
        }
    }

    static func parseMail(_ argument: Substring, maxMessageBytes: Int) -> Outcome {
        guard let rest = argument.droppingPrefix(caseInsensitive: "FROM:") else {
            return .reject(SMTPReply(501, "5.5.4", "Syntax: MAIL FROM:<address>"))
        }
        guard let (path, parameters) = splitPath(rest, allowNull: true) else {
            return .reject(SMTPReply(501, "5.1.7", "Bad sender address syntax"))
        }
        var size: Int? = nil
        var eightBit = false
        for parameter in parameters {
            let (key, value) = keyValue(parameter)
            switch key {
            case "SIZE":
                // Bound the digits before converting: a 40-digit SIZE must not trap.
                guard let value, !value.isEmpty, value.count <= 18, value.allSatisfy(\.isASCIIDigit),
                    let number = Int(value)
                else { return .reject(SMTPReply(501, "5.5.4", "Bad SIZE parameter")) }
                guard number <= maxMessageBytes else {
                    return .reject(SMTPReply(552, "5.3.4", "Message size exceeds fixed limit"))
                }
                size = number
            case "BODY":
                switch value?.uppercased() {
                case "7BIT": eightBit = false
                case "8BITMIME": eightBit = true
                default: return .reject(SMTPReply(501, "5.5.4", "Bad BODY parameter"))
                }
            default:
                return .reject(SMTPReply(555, "5.5.4", "Unsupported option: \(parameter)"))
            }
        }
        return .command(.mail(reversePath: path, size: size, eightBit: eightBit))
    }

    static func parseRcpt(_ argument: Substring) -> Outcome {
        guard let rest = argument.droppingPrefix(caseInsensitive: "TO:") else {
            return .reject(SMTPReply(501, "5.5.4", "Syntax: RCPT TO:<address>"))
        }
        guard let (path, parameters) = splitPath(rest, allowNull: false) else {
            return .reject(SMTPReply(501, "5.1.3", "Bad recipient address syntax"))
        }
        if let first = parameters.first {
            return .reject(SMTPReply(555, "5.5.4", "Unsupported option: \(first)"))
        }
        return .command(.rcpt(forwardPath: path))
    }

    /// `<path> PARAM=x ...` → the mailbox (source route dropped, RFC 5321 §4.1.1.3) and parameters.
    static func splitPath(_ text: Substring, allowNull: Bool) -> (String, [Substring])? {
        let trimmed = text.drop(while: { $0 == " " })
        guard trimmed.first == "<", let close = trimmed.firstIndex(of: ">") else { return nil }
        var inner = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
        let parameters = trimmed[trimmed.index(after: close)...].split(separator: " ")
        if inner.isEmpty { return allowNull ? ("", parameters) : nil }
        if inner.first == "@" {
            guard let colon = inner.firstIndex(of: ":") else { return nil }
            inner = inner[inner.index(after: colon)...]
        }
        guard isMailbox(inner) else { return nil }
        return (String(inner), parameters)
    }

    /// `local@domain` with a dot-string or quoted local part and a domain name or address literal.
    package static func isMailbox(_ text: Substring) -> Bool {
        // Every path a client sends is ASCII (the line was checked): decide on its bytes. Characters
        // (grapheme clusters) and Unicode properties are needed only for header text that is not.
        if let ascii = text.utf8.withContiguousStorageIfAvailable({ isASCIIMailbox($0) }) ?? nil { return ascii }
        return isMailboxByCharacters(text)
    }

    /// `isMailbox` over Characters, for any text.
    static func isMailboxByCharacters(_ text: Substring) -> Bool {
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

    static func keyValue(_ parameter: Substring) -> (String, String?) {
        guard let equals = parameter.firstIndex(of: "=") else { return (parameter.uppercased(), nil) }
        return (parameter[..<equals].uppercased(), String(parameter[parameter.index(after: equals)...]))
    }
}

extension Substring {
    var trimmingSpaces: String {
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

    func droppingPrefix(caseInsensitive prefix: String) -> Substring? {
        guard count >= prefix.count, self.prefix(prefix.count).uppercased() == prefix else { return nil }
        return dropFirst(prefix.count)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

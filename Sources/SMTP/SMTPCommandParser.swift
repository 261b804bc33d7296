import MIME

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
            guard argument.allSatisfy({ $0 == " " || $0 == "\t" }) else {
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
                guard let value, !value.isEmpty, value.count <= 18, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
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
        guard MailAddress.isMailbox(inner) else { return nil }
        return (String(inner), parameters)
    }

    static func keyValue(_ parameter: Substring) -> (String, String?) {
        guard let equals = parameter.firstIndex(of: "=") else { return (parameter.uppercased(), nil) }
        return (parameter[..<equals].uppercased(), String(parameter[parameter.index(after: equals)...]))
    }
}

extension Substring {
    func droppingPrefix(caseInsensitive prefix: String) -> Substring? {
        guard count >= prefix.count, self.prefix(prefix.count).uppercased() == prefix else { return nil }
        return dropFirst(prefix.count)
    }
}

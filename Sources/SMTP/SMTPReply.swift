/// One SMTP reply: a three-digit code, an enhanced status code (RFC 3463, announced with
/// ENHANCEDSTATUSCODES, RFC 2034) and one or more text lines (RFC 5321 §4.2).
package struct SMTPReply: Sendable, Equatable {
    package var code: Int
    /// `x.y.z`, or nil for the greeting and EHLO lines, which carry none (RFC 2034 §3).
    package var enhancedCode: String?
    package var lines: [String]

    /// Longest reply line, code and CRLF included (RFC 5321 §4.5.3.1.5).
    package static let maxLineBytes = 512

    /// Lines longer than `maxLineBytes` on the wire are cut (at a character boundary), so `text` is
    /// always what the client read.
    package init(_ code: Int, _ enhancedCode: String?, _ lines: [String]) {
        self.code = code
        self.enhancedCode = enhancedCode
        let room = Self.maxTextBytes(enhancedCode: enhancedCode)
        self.lines = lines.isEmpty ? [""] : lines.map { Self.cut($0, toBytes: room) }
    }

    /// Bytes a line's text may take: 512 less `NNN-`, the enhanced code and its space, and CRLF.
    package static func maxTextBytes(enhancedCode: String?) -> Int {
        maxLineBytes - 4 - (enhancedCode.map { $0.utf8.count + 1 } ?? 0) - 2
    }

    static func cut(_ line: String, toBytes room: Int) -> String {
        guard line.utf8.count > room else { return line }
        var out = ""
        var used = 0
        for character in line {
            let size = character.utf8.count
            guard used + size <= room else { break }
            out.append(character)
            used += size
        }
        return out
    }

    package init(_ code: Int, _ enhancedCode: String?, _ text: String) {
        self.init(code, enhancedCode, [text])
    }

    /// 2xx.
    package var isPositive: Bool { (200..<400).contains(code) }
    /// 4xx: try again later.
    package var isTransient: Bool { (400..<500).contains(code) }

    /// The first line as a client shows it: `550 5.1.1 <a@b>: user not found`.
    package var text: String {
        "\(code)" + (enhancedCode.map { " " + $0 } ?? "") + " " + lines[0]
    }

    /// `250-first\r\n250 last\r\n`: every line but the last continues with `-` (RFC 5321 §4.2.1).
    package func serialize(into bytes: inout [UInt8]) {
        for (index, line) in lines.enumerated() {
            bytes.append(contentsOf: String(code).utf8)
            bytes.append(index == lines.count - 1 ? UInt8(ascii: " ") : UInt8(ascii: "-"))
            if let enhancedCode {
                bytes.append(contentsOf: enhancedCode.utf8)
                bytes.append(UInt8(ascii: " "))
            }
            bytes.append(contentsOf: line.utf8)
            bytes.append(contentsOf: [13, 10])
        }
    }

    package var bytes: [UInt8] {
        var out: [UInt8] = []
        serialize(into: &out)
        return out
    }
}

extension SMTPReply {
    package static let ok = SMTPReply(250, "2.0.0", "OK")
    package static let notRecognized = SMTPReply(500, "5.5.2", "Error: command not recognized")
    package static let lineTooLong = SMTPReply(500, "5.5.2", "Error: line too long")
    package static let badSequenceHello = SMTPReply(503, "5.5.1", "Error: send HELO/EHLO first")
    package static let badSequenceMail = SMTPReply(503, "5.5.1", "Error: need MAIL command")
    package static let nestedMail = SMTPReply(503, "5.5.1", "Error: nested MAIL command")
    package static let badSequenceRcpt = SMTPReply(503, "5.5.1", "Error: need RCPT command")
    package static let noValidRecipients = SMTPReply(554, "5.5.1", "Error: no valid recipients")
    package static let startData = SMTPReply(354, nil, "End data with <CR><LF>.<CR><LF>")
    package static let bye = SMTPReply(221, "2.0.0", "Bye")
    package static let tooManyRecipients = SMTPReply(452, "4.5.3", "Error: too many recipients")
    /// The listener's bound on messages in progress is reached (RFC 5321 §4.2.2, RFC 3463 X.3.1).
    package static let insufficientStorage = SMTPReply(
        452, "4.3.1", "Error: insufficient system storage, try again later")
    package static let tooManyErrors = SMTPReply(421, "4.7.0", "Error: too many errors")
    package static let readyForTLS = SMTPReply(220, "2.0.0", "Ready to start TLS")
    package static let cannotVerify = SMTPReply(252, "2.0.0", "Cannot VRFY user, but will accept message")
}

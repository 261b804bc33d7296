/// One SMTP command line, parsed (RFC 5321 §4.1.1; SIZE, RFC 1870; BODY, RFC 6152).
package enum SMTPCommand: Sendable, Equatable {
    case ehlo(String)
    case helo(String)
    /// `MAIL FROM:<reverse-path>`; "" is the null sender `<>`. `size` from `SIZE=`, `eightBit` from
    /// `BODY=8BITMIME`.
    case mail(reversePath: String, size: Int?, eightBit: Bool)
    case rcpt(forwardPath: String)
    case data
    case rset
    case noop
    case quit
    case startTLS
    case vrfy
    case help
}

extension SMTPCommand {
    /// The verb for logs (`MAIL`, `RCPT`, …).
    package var verb: String {
        switch self {
        case .ehlo: "EHLO"
        case .helo: "HELO"
        case .mail: "MAIL"
        case .rcpt: "RCPT"
        case .data: "DATA"
        case .rset: "RSET"
        case .noop: "NOOP"
        case .quit: "QUIT"
        case .startTLS: "STARTTLS"
        case .vrfy: "VRFY"
        case .help: "HELP"
        }
    }
}

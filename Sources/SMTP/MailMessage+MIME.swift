/// The readable parts of a MIME message (RFC 2045, RFC 2046): the first `text/plain` and the first
/// `text/html`, found through nested `multipart/*` bodies and decoded from base64 or
/// quoted-printable.
extension MailMessage {
    package struct TextParts: Sendable, Equatable {
        package var text: String?
        package var html: String?
        /// Other parts, by content type (attachments are listed, not decoded).
        package var otherTypes: [String] = []
    }

    /// Deepest `multipart/*` nesting followed.
    static let maxDepth = 8

    package var textParts: TextParts {
        var parts = TextParts()
        collect(into: &parts, depth: 0)
        return parts
    }

    /// The media type, lowercased (`text/plain` when absent, RFC 2045 §5.2), and its parameters.
    package var contentType: (type: String, parameters: [String: String]) {
        guard let value = field("Content-Type") else { return ("text/plain", [:]) }
        let pieces = Self.splitParameters(value)
        var parameters: [String: String] = [:]
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            var parameterValue = pair[1].trimmingSpaces
            if parameterValue.hasPrefix("\"") && parameterValue.hasSuffix("\"") && parameterValue.count >= 2 {
                parameterValue = String(parameterValue.dropFirst().dropLast())
            }
            parameters[pair[0].trimmingSpaces.lowercased()] = parameterValue
        }
        return ((pieces.first.map { $0.trimmingSpaces } ?? "text/plain").lowercased(), parameters)
    }

    func collect(into parts: inout TextParts, depth: Int) {
        let (type, parameters) = contentType
        if type.hasPrefix("multipart/"), depth < Self.maxDepth, let boundary = parameters["boundary"],
            !boundary.isEmpty
        {
            for section in Self.sections(of: body, boundary: boundary) {
                MailMessage(parsing: section).collect(into: &parts, depth: depth + 1)
            }
            return
        }
        let text = decodedBody(charset: parameters["charset"])
        if type == "text/plain" && parts.text == nil && field("Content-Disposition")?.hasPrefix("attachment") != true {
            parts.text = text
        } else if type == "text/html" && parts.html == nil {
            parts.html = text
        } else {
            parts.otherTypes.append(type)
        }
    }

    /// The body decoded by `Content-Transfer-Encoding`, as text.
    func decodedBody(charset: String?) -> String {
        let encoding = field("Content-Transfer-Encoding")?.lowercased() ?? "7bit"
        let bytes: [UInt8]
        switch encoding {
        case "base64": bytes = TransferEncoding.decodeBase64(body)
        case "quoted-printable": bytes = TransferEncoding.decodeQuotedPrintable(body)
        default: bytes = Array(body)
        }
        if let charset, TransferEncoding.isLatin1(charset) { return TransferEncoding.latin1Text(bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bodies between `--boundary` delimiter lines, up to the closing `--boundary--`.
    static func sections(of body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let delimiter = Array(("--" + boundary).utf8)
        var sections: [ArraySlice<UInt8>] = []
        var start: Int? = nil
        var index = body.startIndex
        while index < body.endIndex {
            let lineEnd = body[index...].firstIndex(of: 10) ?? body.endIndex
            var line = body[index..<lineEnd]
            if line.last == 13 { line = line.dropLast() }
            let next = lineEnd == body.endIndex ? lineEnd : lineEnd + 1
            if line.starts(with: delimiter) {
                let rest = line.dropFirst(delimiter.count)
                if let open = start {
                    var end = index
                    // The CRLF before the delimiter belongs to it (RFC 2046 §5.1.1).
                    if end > open && body[end - 1] == 10 { end -= 1 }
                    if end > open && body[end - 1] == 13 { end -= 1 }
                    sections.append(body[open..<end])
                }
                if rest.starts(with: [45, 45]) { return sections }
                start = next
            }
            index = next
        }
        return sections
    }

    /// `a; b=c; d="e;f"` split at semicolons outside quotes.
    static func splitParameters(_ value: String) -> [Substring] {
        var pieces: [Substring] = []
        var quoted = false
        var start = value.startIndex
        for index in value.indices {
            let character = value[index]
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted {
                pieces.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        pieces.append(value[start...])
        return pieces
    }
}

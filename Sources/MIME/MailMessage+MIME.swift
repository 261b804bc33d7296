/// The readable parts of a MIME message (RFC 2045, RFC 2046): the first `text/plain` and the first
/// `text/html` of its leaf parts (`MailMessage+Parts.swift`), decoded from base64 or quoted-printable.
extension MailMessage {
    package struct TextParts: Sendable, Equatable {
        package var text: String?
        package var html: String?
        /// The other leaf parts (attachments, inline images, a second text part), in order.
        package var others: [Part] = []
        /// Their media types.
        package var otherTypes: [String] { others.map(\.contentType) }
        /// `others` without the inline ones: what a mail client lists as attachments.
        package var attachments: [Part] { others.filter { !$0.isInline } }
        /// Why not every part was read (`PartList.note`), or nil.
        package var note: String?

        /// How many of `parts` a mail client lists as attachments (`attachments`), decoding nothing.
        package static func attachmentCount(of parts: [Part]) -> Int {
            others(in: parts).filter { !$0.isInline }.count
        }

        /// The parts that are neither the text nor the HTML body (`others`), decoding nothing.
        package static func others(in parts: [Part]) -> [Part] {
            zip(parts, roles(of: parts)).filter { $1 == .other }.map(\.0)
        }

        enum Role { case text, html, other }

        /// Which part is the text body (the first `text/plain` not an attachment), which the HTML body
        /// (the first `text/html`), and which are the others.
        static func roles(of parts: [Part]) -> [Role] {
            var sawText = false
            var sawHTML = false
            return parts.map { part in
                if part.contentType == "text/plain" && !sawText && part.disposition != "attachment" {
                    sawText = true
                    return .text
                }
                if part.contentType == "text/html" && !sawHTML {
                    sawHTML = true
                    return .html
                }
                return .other
            }
        }
    }

    /// Deepest `multipart/*` nesting followed.
    static let maxDepth = 8

    package var textParts: TextParts { textParts(decodingAtMost: .max) }

    /// `textParts` with the text and HTML bodies decoded up to about `limit` bytes each (a view that
    /// shows 2 MiB need not decode 9 MB first).
    package func textParts(decodingAtMost limit: Int) -> TextParts {
        let list = partList
        var result = TextParts(note: list.note)
        for (part, role) in zip(list.parts, TextParts.roles(of: list.parts)) {
            switch role {
            case .text: result.text = part.message.decodedBody(charset: part.parameters["charset"], limit: limit)
            case .html: result.html = part.message.decodedBody(charset: part.parameters["charset"], limit: limit)
            case .other: result.others.append(part)
            }
        }
        return result
    }

    /// The media type, lowercased (`text/plain` when absent, RFC 2045 §5.2), and its parameters.
    package var contentType: (type: String, parameters: [String: String]) {
        guard let value = field("Content-Type") else { return ("text/plain", [:]) }
        let (type, parameters) = Self.parameterized(value)
        return (type.isEmpty ? "text/plain" : type, parameters)
    }

    /// `value; name=value; name="quoted"` (Content-Type, Content-Disposition) as its first item,
    /// lowercased, and its parameters by lowercased name.
    package static func parameterized(_ value: String) -> (String, [String: String]) {
        let pieces = splitParameters(value)
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
        return ((pieces.first.map { $0.trimmingSpaces } ?? "").lowercased(), parameters)
    }

    /// The body decoded by `Content-Transfer-Encoding` (RFC 2045 §6), as bytes.
    package var decodedBytes: [UInt8] {
        switch field("Content-Transfer-Encoding")?.lowercased() ?? "7bit" {
        case "base64": TransferEncoding.decodeBase64(body)
        case "quoted-printable": TransferEncoding.decodeQuotedPrintable(body)
        default: Array(body)
        }
    }

    /// The body decoded by `Content-Transfer-Encoding`, as text, from its first `limit` decoded bytes
    /// (a 7bit or 8bit body is read in place, not copied first).
    func decodedBody(charset: String?, limit: Int = .max) -> String {
        let latin1 = charset.map(TransferEncoding.isLatin1) ?? false
        switch field("Content-Transfer-Encoding")?.lowercased() ?? "7bit" {
        case "base64", "quoted-printable":
            let bytes = decodedBytes.prefix(limit)
            return latin1 ? TransferEncoding.latin1Text(Array(bytes)) : String(decoding: bytes, as: UTF8.self)
        default:
            let bytes = body.prefix(limit)
            return latin1 ? TransferEncoding.latin1Text(Array(bytes)) : String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The bodies between `--boundary` delimiter lines, up to the closing `--boundary--`, at most
    /// `limit` of them (the scan stops there).
    static func sections(of body: ArraySlice<UInt8>, boundary: String, limit: Int = .max) -> [ArraySlice<UInt8>] {
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
                    if sections.count >= limit { return sections }
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

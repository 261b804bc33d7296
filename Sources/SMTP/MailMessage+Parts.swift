/// The leaf parts of a MIME message (RFC 2046), numbered as IMAP numbers body sections (RFC 9051
/// §6.4.5, "BODY[<section>]"): the parts of a `multipart/*` body are `1`, `2`, …, a part inside
/// part 2 is `2.1`; a message that is not multipart has one part, `1`. A `message/rfc822` part is a
/// leaf (an attached message), not walked into.
extension MailMessage {
    package struct Part: Sendable, Equatable {
        /// The section number: `1`, `2.1`.
        package var id: String
        /// The media type, lowercased (`text/plain` when absent).
        package var contentType: String
        /// The Content-Type's parameters by lowercased name (`charset`, `name`).
        package var parameters: [String: String]
        /// `attachment` or `inline` (lowercased), from `Content-Disposition` (RFC 2183); nil without one.
        package var disposition: String?
        /// The file name: the disposition's `filename` (RFC 2183 §2.3; RFC 2231's `filename*` and continued
        /// `filename*0`, `filename*1*`… first),
        /// else the Content-Type's `name`, with RFC 2047 encoded words decoded; nil without one.
        package var filename: String?
        /// `Content-ID` without its angle brackets (RFC 2392); nil without one.
        package var contentID: String?
        /// The part's own header fields and its still-encoded body.
        package var message: MailMessage

        /// Whether the part is shown inside the message (`Content-Disposition: inline` with a
        /// `Content-ID`, an image the HTML refers to as `cid:`) rather than listed as a file.
        package var isInline: Bool { disposition == "inline" && contentID != nil }
    }

    /// Every leaf part, in the order they appear.
    package var parts: [Part] {
        var parts: [Part] = []
        collectParts(into: &parts, id: nil, depth: 0)
        return parts
    }

    func collectParts(into parts: inout [Part], id: String?, depth: Int) {
        let (type, parameters) = contentType
        if type.hasPrefix("multipart/"), depth < Self.maxDepth, let boundary = parameters["boundary"],
            !boundary.isEmpty
        {
            for (index, section) in Self.sections(of: body, boundary: boundary).enumerated() {
                let number = String(index + 1)
                MailMessage(parsing: section).collectParts(
                    into: &parts, id: id.map { "\($0).\(number)" } ?? number, depth: depth + 1)
            }
            return
        }
        let (disposition, dispositionParameters) = field("Content-Disposition").map(Self.parameterized) ?? ("", [:])
        let name =
            Self.rfc2231Value(named: "filename", in: dispositionParameters) ?? dispositionParameters["filename"]
            ?? Self.rfc2231Value(named: "name", in: parameters) ?? parameters["name"]
        var contentID = Substring(field("Content-ID") ?? "")
        if contentID.hasPrefix("<") && contentID.hasSuffix(">") && contentID.count >= 2 {
            contentID = contentID.dropFirst().dropLast()
        }
        parts.append(
            Part(
                id: id ?? "1", contentType: type, parameters: parameters,
                disposition: disposition.isEmpty ? nil : disposition,
                filename: name.map(EncodedWords.decode).flatMap { $0.isEmpty ? nil : $0 },
                contentID: contentID.isEmpty ? nil : String(contentID), message: self))
    }
}

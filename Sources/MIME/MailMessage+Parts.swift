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

    /// Most MIME sections read in one message, across every level: a 2.4 MB message of 200,000 empty
    /// parts once made a 32 MB JSON view and +300 MiB that stayed (docs/limits.md). Beyond it the rest
    /// is not read, and `PartList.truncated` says so.
    package static let maxParts = 1000

    /// The leaf parts a walk read, and whether it stopped early.
    package struct PartList: Sendable, Equatable {
        package var parts: [Part] = []
        /// Sections of any level seen so far (the budget `maxParts` bounds).
        var sections = 0
        /// Whether sections beyond `maxParts` were left unread.
        package var truncated = false
        /// Whether a `multipart/*` deeper than `maxDepth` was kept whole as one leaf.
        package var tooDeep = false

        /// What a record says about a walk that stopped early (nil when it read everything).
        package var note: String? {
            var notes: [String] = []
            if truncated { notes.append("more than \(MailMessage.maxParts) MIME parts: only the first are read") }
            if tooDeep {
                notes.append("multiparts nested deeper than \(MailMessage.maxDepth): the deeper ones are one part")
            }
            return notes.isEmpty ? nil : notes.joined(separator: "; ") + " (docs/limits.md; the .eml has every byte)"
        }
    }

    /// Every leaf part, in the order they appear, at most `maxParts`.
    package var parts: [Part] { partList.parts }

    /// The leaf parts and whether the walk stopped at a bound.
    package var partList: PartList {
        var list = PartList()
        collectParts(into: &list, id: nil, depth: 0)
        return list
    }

    func collectParts(into list: inout PartList, id: String?, depth: Int) {
        let (type, parameters) = contentType
        if type.hasPrefix("multipart/"), let boundary = parameters["boundary"], !boundary.isEmpty {
            if depth < Self.maxDepth {
                let room = Self.maxParts - list.sections
                let sections = Self.sections(of: body, boundary: boundary, limit: room + 1)
                if sections.count > room { list.truncated = true }
                list.sections += min(sections.count, room)
                for (index, section) in sections.prefix(room).enumerated() {
                    let number = String(index + 1)
                    MailMessage(reading: section, maxFields: Self.maxPartFields).collectParts(
                        into: &list, id: id.map { "\($0).\(number)" } ?? number, depth: depth + 1)
                }
                return
            }
            list.tooDeep = true
        }
        let (disposition, dispositionParameters) = field("Content-Disposition").map(Self.parameterized) ?? ("", [:])
        let name =
            Self.rfc2231Value(named: "filename", in: dispositionParameters) ?? dispositionParameters["filename"]
            ?? Self.rfc2231Value(named: "name", in: parameters) ?? parameters["name"]
        var contentID = Substring(field("Content-ID") ?? "")
        if contentID.hasPrefix("<") && contentID.hasSuffix(">") && contentID.count >= 2 {
            contentID = contentID.dropFirst().dropLast()
        }
        list.parts.append(
            Part(
                id: id ?? "1", contentType: type, parameters: parameters,
                disposition: disposition.isEmpty ? nil : disposition,
                filename: name.map(EncodedWords.decode).flatMap { $0.isEmpty ? nil : $0 },
                contentID: contentID.isEmpty ? nil : String(contentID), message: self))
    }
}

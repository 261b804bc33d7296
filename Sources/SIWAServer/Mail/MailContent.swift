import HTTP
import JSON
import MIME
import Mailbox

/// A stored message's parts as the viewer at `/mock/ui` and the Mailpit-compatible API serve them
/// (docs/relay-mail.md, "The viewer"): the HTML part as a page that can load and run nothing, and
/// each other part as a download.
enum MailContent {
    /// The HTML part's policy (https://www.w3.org/TR/CSP3/): nothing is fetched — no image but
    /// `data:`, no style sheet, font, frame or connection, no form target (`form-action` does not
    /// fall back to `default-src`), no `<base>`; only the dashboard may frame it; and `sandbox`
    /// (https://html.spec.whatwg.org/multipage/browsers.html#sandboxing) with no flags: no script
    /// runs, no form submits, no popup opens, `<meta http-equiv=refresh>` is ignored, and the page
    /// has an opaque origin, even when opened on its own outside the dashboard's sandboxed frame.
    static let framePolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'; "
        + "frame-ancestors 'self'; sandbox"

    /// `GET /mock/mail/{id}/html`: the first `text/html` part as sent (nothing removed: the policy,
    /// not a filter, keeps it inert), UTF-8.
    static func html(_ record: MailRecord) throws(ControlFailure) -> HTTPResponse {
        guard let html = MailMessage(parsing: record.raw).textParts.html else {
            throw ControlFailure(
                status: .notFound, error: "not_found", field: "id", "message '\(record.id)' has no HTML part")
        }
        var headers = Responses.noStore(contentType: Responses.htmlContentType)
        headers.add("Content-Security-Policy", framePolicy)
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Referrer-Policy", "no-referrer")
        return HTTPResponse(status: .ok, headers: headers, body: Array(html.utf8))
    }

    /// The part numbered `id` among the message's attachments and other non-body parts.
    static func part(_ id: String, of record: MailRecord) throws(ControlFailure) -> MailMessage.Part {
        let others = MailMessage.TextParts.others(in: MailMessage(parsing: record.raw).parts)
        guard let part = others.first(where: { $0.id == id }) else {
            let known = others.isEmpty ? "it has none" : "its parts: " + others.map(\.id).joined(separator: ", ")
            throw ControlFailure(
                status: .notFound, error: "not_found", field: "part",
                "message '\(record.id)' has no attachment part '\(id)' (\(known))")
        }
        return part
    }

    /// One part's decoded bytes as a download: always `application/octet-stream` — the declared type
    /// (`application/javascript`, `text/html`) would let the mock's own origin serve a sender's script or
    /// page, which a page of the mock allowing `script-src 'self'` could then load; the JSON views show
    /// the declared type — with `Content-Disposition: attachment` and its file name (RFC 6266: an ASCII
    /// `filename` and the exact `filename*`), and a policy that lets nothing in it run.
    static func download(_ part: MailMessage.Part, of record: MailRecord) -> HTTPResponse {
        let name = fileName(part, of: record)
        let fallback = String(
            name.unicodeScalars.map {
                $0.isASCII && $0.value >= 32 && $0 != "\"" && $0 != "\\" && $0.value != 127 ? Character($0) : "_"
            })
        var headers = Responses.noStore(contentType: "application/octet-stream")
        headers.add(
            "Content-Disposition",
            "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(URLEncodedForm.encodeComponent(name))")
        headers.add("Content-Security-Policy", "default-src 'none'; sandbox")
        headers.add("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: .ok, headers: headers, body: part.message.decodedBytes)
    }

    /// The part's file name, else its Content-ID, else `m1-part-2`.
    static func fileName(_ part: MailMessage.Part, of record: MailRecord) -> String {
        part.filename ?? part.contentID ?? "\(record.id)-part-\(part.id)"
    }

    /// The attachments and other non-body parts of `GET /mock/mail/{id}`, each with the path that
    /// downloads it.
    static func partsJSON(_ record: MailRecord, _ parts: MailMessage.TextParts) -> JSONValue {
        .array(
            parts.others.map { part in
                .object(
                    JSONObject([
                        ("part", .string(part.id)), ("content_type", .string(part.contentType)),
                        ("filename", .string(fileName(part, of: record))),
                        ("content_id", part.contentID.map { .string($0) } ?? .null),
                        ("inline", .bool(part.isInline)), ("size", .int(Int64(part.message.decodedBytes.count))),
                        ("url", .string("/mock/mail/\(record.id)/parts/\(part.id)")),
                    ]))
            })
    }
}

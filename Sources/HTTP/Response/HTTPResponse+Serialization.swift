extension HTTPResponse {
    /// Where the body ends up in a serialized response, so faults can cut it.
    struct SerializedLayout {
        var headLength: Int
        var bodyLength: Int
    }

    /// Appends the whole response (status line, fields, framing, body) to `out` so it goes out in one `send`.
    ///
    /// The server owns the framing: `Content-Length`, `Transfer-Encoding` and `Connection` set by the
    /// responder are replaced. CR, LF and NUL in names or values are dropped (no response splitting).
    /// - Parameters:
    ///   - includeBody: false for `HEAD` (the length is still announced, RFC 9110 §9.3.2).
    ///   - close: adds `Connection: close`; `keepAliveHeader` adds `Connection: keep-alive` (HTTP/1.0 peers).
    @discardableResult
    func serialize(into out: inout [UInt8], includeBody: Bool, close: Bool, keepAliveHeader: Bool = false)
        -> SerializedLayout
    {
        let before = out.count
        let noContent = status.forbidsBody
        out.reserveCapacity(out.count + 128 + headers.fields.count * 40 + (includeBody ? body.count : 0))
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        Self.appendDecimal(status.code, to: &out)
        out.append(ASCII.space)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        for field in headers.fields where !Self.isFramingField(field.name) {
            Self.appendSanitized(field.name, to: &out)
            out.append(ASCII.colon)
            out.append(ASCII.space)
            Self.appendSanitized(field.value, to: &out)
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        }
        if !noContent {
            out.append(contentsOf: "Content-Length: ".utf8)
            Self.appendDecimal(body.count, to: &out)
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        }
        if close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if keepAliveHeader {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        let headLength = out.count - before
        let bodyLength = includeBody && !noContent ? body.count : 0
        if bodyLength > 0 { out.append(contentsOf: body) }
        return SerializedLayout(headLength: headLength, bodyLength: bodyLength)
    }

    /// Whether the responder itself asked to close the connection with `Connection: close`.
    var asksToClose: Bool { headers.asksToClose }

    static func isFramingField(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let first = bytes.first else { return false }
            switch ASCII.lower(first) {
            case UInt8(ascii: "c"):
                return ASCII.equalsIgnoringCase(bytes, lowercase: "content-length")
                    || ASCII.equalsIgnoringCase(bytes, lowercase: "connection")
            case UInt8(ascii: "t"):
                return ASCII.equalsIgnoringCase(bytes, lowercase: "transfer-encoding")
            default:
                return false
            }
        }
    }

    static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            if !bytes.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) {
                out.append(contentsOf: bytes)
            } else {
                for byte in bytes where byte != ASCII.cr && byte != ASCII.lf && byte != 0 { out.append(byte) }
            }
        }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value > 0 else {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while rest > 0 {
                raw[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(raw[i]) }
        }
    }
}

extension HTTPResponse {
    /// A small plain-text response for protocol errors (rejects, 503 over capacity, 500).
    static func plainText(status: HTTPStatus, _ message: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
            body: Array((message + "\n").utf8))
    }
}

extension HTTPResponse {
    /// Where the body ends up in a serialized response, so faults can cut it.
    struct SerializedLayout: Sendable {
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
        if let wire, includeBody, !close, !keepAliveHeader {
            out.append(contentsOf: wire.bytes)
            return wire.layout
        }
        let before = out.count
        let noContent = status.forbidsBody
        out.reserveCapacity(out.count + 128 + headers.fields.count * 40 + (includeBody ? body.count : 0))
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        Self.appendDecimal(status.code, to: &out)
        out.append(ASCII.space)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        var fields = headers.fields[...]
        if let wire = headers.wire {
            out.append(contentsOf: wire.bytes)
            fields = fields.dropFirst(wire.fieldCount)
        }
        for field in fields { Self.appendField(field, to: &out) }
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

    /// Appends `Name: value` and CRLF, sanitized; nothing for a framing field (the server writes those).
    static func appendField(_ field: (name: String, value: String), to out: inout [UInt8]) {
        guard !isFramingField(field.name) else { return }
        appendSanitized(field.name, to: &out)
        out.append(ASCII.colon)
        out.append(ASCII.space)
        appendSanitized(field.value, to: &out)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
    }

    /// Whether the responder itself asked to close the connection with `Connection: close`.
    var asksToClose: Bool { wire?.asksToClose ?? headers.asksToClose }

    static func isFramingField(_ name: String) -> Bool {
        // Most names are none of the three: their length alone says so (String's UTF-8 count is O(1)).
        let count = name.utf8.count
        guard count == 10 || count == 14 || count == 17 else { return false }
        var name = name
        return name.withUTF8 { bytes in
            switch count {
            case 10: return ASCII.equalsIgnoringCase(bytes, lowercase: "connection")
            case 14: return ASCII.equalsIgnoringCase(bytes, lowercase: "content-length")
            default: return ASCII.equalsIgnoringCase(bytes, lowercase: "transfer-encoding")
            }
        }
    }

    static func appendSanitized(_ text: String, to out: inout [UInt8]) {
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            appendSanitized(bytes, to: &out)
        }
        if appended == nil {
            // A bridged or non-contiguous string (not made by this server): copy it once.
            Array(text.utf8).withUnsafeBufferPointer { appendSanitized($0, to: &out) }
        }
    }

    /// Appends `bytes` without CR, LF or NUL: one scan, then one copy when none is there (the usual case).
    private static func appendSanitized(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if !mayHoldControl(bytes) {
            out.append(contentsOf: bytes)
        } else {
            for byte in bytes where byte != ASCII.cr && byte != ASCII.lf && byte != 0 { out.append(byte) }
        }
    }

    /// Whether any byte is below 0x0E (CR 0x0D, LF 0x0A and NUL are): eight bytes a step, so a clean
    /// field costs about one instruction a byte ("has a byte less than n", Hacker's Delight §6-1).
    private static func mayHoldControl(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { return true }
            i += 8
        }
        while i < bytes.count {
            if bytes[i] < 0x0E { return true }
            i += 1
        }
        return false
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
        var start = 20
        var rest = value
        withUnsafeMutableBytes(of: &digits) { raw in
            // Written from the end, then appended in one copy (an append per digit cost ~80 instructions).
            while rest > 0 {
                start -= 1
                raw[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[start...]).assumingMemoryBound(to: UInt8.self))
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

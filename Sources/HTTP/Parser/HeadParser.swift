/// Parses one complete request head (request line and field lines, without the final empty line).
///
/// Applies the framing rules of RFC 9112 §6 and the field syntax of RFC 9110 §5; every violation maps
/// to the precise status (400, 411, 413, 417, 505) with a short reason.
enum HeadParser {
    /// How the body after the head is framed.
    struct Framing {
        var contentLength = 0
        var expectsContinue = false
    }

    struct Failure: Error {
        var status: Int
        var reason: String
        init(_ status: Int, _ reason: String) {
            self.status = status
            self.reason = reason
        }
    }

    /// More digits than this cannot be a Content-Length under any limit; stop before accumulating.
    static let maxContentLengthDigits = 15

    /// Builds the request from `head`, which spans the request line up to and including the last field
    /// line's CRLF; `framing` receives the body length and whether the client waits for 100 Continue.
    @inline(__always)
    static func parse(
        _ head: UnsafeBufferPointer<UInt8>, limits: HTTPRequestParser.Limits, remoteAddress: String,
        headers: inout HTTPHeaders, framing: inout Framing
    ) throws(Failure) -> HTTPRequest {
        var lines = LineIterator(bytes: head)
        guard let requestLine = lines.next() else { throw Failure(400, "empty request line") }
        let (method, target, path, query, version) = try RequestLine.parse(requestLine)

        headers.removeAll()
        var contentLength: Int? = nil
        var sawTransferEncoding = false
        var sawHost = false
        var connectionClose = false
        var connectionKeepAlive = false
        var expectsContinue = false

        while let line = lines.next() {
            guard let first = line.first else { throw Failure(400, "empty header line") }
            if first == ASCII.space || first == ASCII.tab {
                throw Failure(400, "obsolete line folding in header fields")
            }
            var colon = 0
            while colon < line.count && line[colon] != ASCII.colon {
                guard ASCII.isToken(line[colon]) else {
                    if line[colon] == ASCII.space || line[colon] == ASCII.tab {
                        throw Failure(400, "whitespace in or after header field name")
                    }
                    throw Failure(400, "invalid character in header field name")
                }
                colon += 1
            }
            guard colon < line.count else { throw Failure(400, "header field without colon") }
            guard colon > 0 else { throw Failure(400, "empty header field name") }
            let name = UnsafeBufferPointer(rebasing: line[0..<colon])
            var valueStart = colon + 1
            var valueEnd = line.count
            while valueStart < valueEnd && (line[valueStart] == ASCII.space || line[valueStart] == ASCII.tab) {
                valueStart += 1
            }
            while valueEnd > valueStart && (line[valueEnd - 1] == ASCII.space || line[valueEnd - 1] == ASCII.tab) {
                valueEnd -= 1
            }
            let value = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
            for byte in value where !ASCII.isFieldValueByte(byte) {
                throw Failure(400, "invalid character in header field value")
            }

            switch ASCII.lower(name[0]) {
            case UInt8(ascii: "c"):
                if ASCII.equalsIgnoringCase(name, lowercase: "content-length") {
                    let length = try parseContentLength(value, limits: limits)
                    if let previous = contentLength, previous != length {
                        throw Failure(400, "conflicting Content-Length fields")
                    }
                    contentLength = length
                } else if ASCII.equalsIgnoringCase(name, lowercase: "connection") {
                    scanConnectionTokens(value, close: &connectionClose, keepAlive: &connectionKeepAlive)
                }
            case UInt8(ascii: "t"):
                if ASCII.equalsIgnoringCase(name, lowercase: "transfer-encoding") { sawTransferEncoding = true }
            case UInt8(ascii: "h"):
                if ASCII.equalsIgnoringCase(name, lowercase: "host") {
                    if sawHost { throw Failure(400, "more than one Host field") }
                    sawHost = true
                }
            case UInt8(ascii: "e"):
                if ASCII.equalsIgnoringCase(name, lowercase: "expect") {
                    guard ASCII.equalsIgnoringCase(value, lowercase: "100-continue") else {
                        throw Failure(417, "only Expect: 100-continue is supported")
                    }
                    expectsContinue = true
                }
            default:
                break
            }
            headers.add(fieldName(name), ASCII.string(value))
        }

        if sawTransferEncoding {
            // RFC 9112 §6.1/§6.3: both together is a smuggling attempt; chunked request bodies are not accepted.
            if contentLength != nil { throw Failure(400, "both Transfer-Encoding and Content-Length") }
            throw Failure(411, "Transfer-Encoding is not accepted; send Content-Length")
        }
        if version == .http11 && !sawHost { throw Failure(400, "missing Host field") }
        let length = contentLength ?? 0
        if length > limits.maxBodyBytes { throw Failure(413, "request body larger than \(limits.maxBodyBytes) bytes") }
        let keepAlive = version == .http11 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        framing = Framing(contentLength: length, expectsContinue: expectsContinue && version == .http11 && length > 0)
        return HTTPRequest(
            method: method, target: target, path: path, query: query, headers: headers, body: [],
            remoteAddress: remoteAddress, version: version, keepAlive: keepAlive)
    }

    /// `Content-Length = 1*DIGIT` (RFC 9110 §8.6), with the digit count bounded before accumulating.
    static func parseContentLength(_ value: UnsafeBufferPointer<UInt8>, limits: HTTPRequestParser.Limits)
        throws(Failure) -> Int
    {
        guard !value.isEmpty else { throw Failure(400, "empty Content-Length") }
        for byte in value where byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") {
            throw Failure(400, "Content-Length is not a decimal number")
        }
        var digits = value[...]
        while digits.count > 1 && digits.first == UInt8(ascii: "0") { digits = digits.dropFirst() }
        guard digits.count <= maxContentLengthDigits else {
            throw Failure(413, "request body larger than \(limits.maxBodyBytes) bytes")
        }
        var result = 0
        for byte in digits { result = result * 10 + Int(byte - UInt8(ascii: "0")) }
        return result
    }

    /// Reads the comma-separated `Connection` options (RFC 9110 §7.6.1).
    static func scanConnectionTokens(_ value: UnsafeBufferPointer<UInt8>, close: inout Bool, keepAlive: inout Bool) {
        var i = 0
        while i < value.count {
            while i < value.count && (value[i] == ASCII.space || value[i] == ASCII.tab || value[i] == UInt8(ascii: ","))
            {
                i += 1
            }
            let tokenStart = i
            while i < value.count && value[i] != UInt8(ascii: ",") && value[i] != ASCII.space && value[i] != ASCII.tab {
                i += 1
            }
            let token = UnsafeBufferPointer(rebasing: value[tokenStart..<i])
            if ASCII.equalsIgnoringCase(token, lowercase: "close") { close = true }
            if ASCII.equalsIgnoringCase(token, lowercase: "keep-alive") { keepAlive = true }
        }
    }
}

/// Splits a head into CRLF-terminated lines; a final line without CRLF is returned as is.
struct LineIterator {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard position < bytes.count else { return nil }
        var i = position
        while i + 1 < bytes.count && !(bytes[i] == ASCII.cr && bytes[i + 1] == ASCII.lf) { i += 1 }
        let lineEnd = i + 1 < bytes.count ? i : bytes.count
        let line = UnsafeBufferPointer(rebasing: bytes[position..<lineEnd])
        position = lineEnd + 2
        return line
    }
}

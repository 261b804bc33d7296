/// `request-line = method SP request-target SP HTTP-version` (RFC 9112 §3).
enum RequestLine {
    /// The parts of a request line; `path` and `query` are sliced from the target's bytes once here.
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(HeadParser.Failure)
        -> (method: HTTPMethod, target: String, path: String, query: String?, version: HTTPVersion)
    {
        var i = 0
        while i < line.count && line[i] != ASCII.space {
            guard ASCII.isToken(line[i]) else { throw HeadParser.Failure(400, "invalid character in method") }
            i += 1
        }
        guard i > 0 else { throw HeadParser.Failure(400, "missing method") }
        guard i < line.count else { throw HeadParser.Failure(400, "malformed request line") }
        let method = self.method(UnsafeBufferPointer(rebasing: line[0..<i]))

        let targetStart = i + 1
        var j = targetStart
        var questionMark = -1
        while j < line.count && line[j] != ASCII.space {
            // RFC 3986 characters only: visible ASCII, no controls, no DEL, no obs-text.
            guard line[j] > 0x20 && line[j] < 0x7F else {
                throw HeadParser.Failure(400, "invalid character in request target")
            }
            if line[j] == UInt8(ascii: "?") && questionMark < 0 { questionMark = j }
            j += 1
        }
        guard j > targetStart else { throw HeadParser.Failure(400, "malformed request line") }
        guard line[targetStart] == UInt8(ascii: "/") else {
            throw HeadParser.Failure(400, "request target must be in origin-form (start with /)")
        }
        guard j < line.count else { throw HeadParser.Failure(400, "malformed request line") }
        let target = ASCII.string(UnsafeBufferPointer(rebasing: line[targetStart..<j]))
        let path: String
        let query: String?
        if questionMark < 0 {
            path = target
            query = nil
        } else {
            path = ASCII.string(UnsafeBufferPointer(rebasing: line[targetStart..<questionMark]))
            query = ASCII.string(UnsafeBufferPointer(rebasing: line[(questionMark + 1)..<j]))
        }

        let version = try parseVersion(UnsafeBufferPointer(rebasing: line[(j + 1)...]))
        return (method, target, path, query, version)
    }

    /// The method token as sent; the common ones come from literals without decoding the bytes.
    static func method(_ token: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if token.count == 3 && token[0] == UInt8(ascii: "G") && token[1] == UInt8(ascii: "E")
            && token[2] == UInt8(ascii: "T")
        {
            return HTTPMethod(rawValue: "GET")
        }
        if token.count == 4 && token[0] == UInt8(ascii: "P") && token[1] == UInt8(ascii: "O")
            && token[2] == UInt8(ascii: "S") && token[3] == UInt8(ascii: "T")
        {
            return HTTPMethod(rawValue: "POST")
        }
        return HTTPMethod(rawValue: ASCII.string(token))
    }

    /// `HTTP-version = "HTTP/" DIGIT "." DIGIT`; 1.0 and 1.1 are served, other well-formed versions get 505.
    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(HeadParser.Failure) -> HTTPVersion {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            bytes[6] == UInt8(ascii: "."),
            let major = digit(bytes[5]), let minor = digit(bytes[7])
        else { throw HeadParser.Failure(400, "malformed HTTP version") }
        guard major == 1, minor <= 1 else {
            throw HeadParser.Failure(505, "HTTP version \(major).\(minor) not supported")
        }
        return HTTPVersion(major: major, minor: minor)
    }

    static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}

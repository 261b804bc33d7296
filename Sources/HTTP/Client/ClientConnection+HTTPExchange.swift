import EventLoop

extension ClientConnection {
    /// Sends a request and reads its final response (skipping `100 Continue`).
    /// - Parameter keepAlive: false adds `Connection: close`.
    package func send(_ request: HTTPClientRequest, keepAlive: Bool = true) throws(ClientError) -> HTTPClientResponse {
        try write(request.serialized(host: hostHeader, keepAlive: keepAlive))
        while true {
            let response = try readResponse(method: request.method)
            if !(100..<200).contains(response.status) { return response }
        }
    }

    /// Reads one response, including interim 1xx responses; leftover bytes stay for the next call.
    /// - Parameter method: the request's method (`HEAD` responses have no body).
    package func readResponse(method: String = "GET") throws(ClientError) -> HTTPClientResponse {
        let headEnd = try readHead()
        let head = inbound[0..<headEnd]
        var response = try Self.parseHead(Array(head))
        inbound.removeFirst(headEnd)
        if method == "HEAD" || (100..<200).contains(response.status) || response.status == 204
            || response.status == 304
        {
            return response
        }
        let limit = maximumBodyBytes ?? .max
        if response.headers.isChunked {
            (response.body, response.isTruncated) = try readChunkedBody(limit: limit)
        } else if let length = try Self.declaredLength(of: response.headers) {
            response.body = try readExactly(min(length, limit))
            response.isTruncated = length > limit
        } else {
            while inbound.count <= limit, try fill() {}
            response.isTruncated = inbound.count > limit
            response.body = Array(inbound.prefix(limit))
            inbound.removeAll()
        }
        return response
    }

    /// Reads until the buffer holds a complete head; returns the index past `CRLF CRLF`.
    func readHead() throws(ClientError) -> Int {
        var searchFrom = 0
        while true {
            if inbound.count >= 4 {
                for i in searchFrom...(inbound.count - 4)
                where inbound[i] == 13 && inbound[i + 1] == 10 && inbound[i + 2] == 13 && inbound[i + 3] == 10 {
                    return i + 4
                }
                searchFrom = inbound.count - 3
            }
            guard inbound.count < 1 << 20 else {
                throw ClientError(.malformedResponse, "response head larger than 1 MiB")
            }
            guard try fill() else {
                throw ClientError(
                    .connectionClosed, "connection closed after \(inbound.count) bytes, before a response head")
            }
        }
    }

    func readExactly(_ count: Int) throws(ClientError) -> [UInt8] {
        while inbound.count < count {
            guard try fill() else {
                throw ClientError(.connectionClosed, "connection closed after \(inbound.count) of \(count) body bytes")
            }
        }
        let body = Array(inbound[0..<count])
        inbound.removeFirst(count)
        return body
    }

    func readLine() throws(ClientError) -> String {
        while true {
            if let lf = inbound.firstIndex(of: 10) {
                let line = String(decoding: inbound[0..<lf], as: UTF8.self)
                inbound.removeFirst(lf + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard try fill() else {
                throw ClientError(.connectionClosed, "connection closed inside a chunked body")
            }
        }
    }

    /// RFC 9112 §7.1 chunked transfer coding (trailers are read and dropped); stops reading once the
    /// body passes `limit` bytes and returns it cut there, with `truncated` true.
    func readChunkedBody(limit: Int) throws(ClientError) -> (body: [UInt8], truncated: Bool) {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard sizeText.utf8.count <= 12, let size = Int(sizeText.trimmingSpaces, radix: 16), size >= 0 else {
                throw ClientError(.malformedResponse, "bad chunk size '\(line)'")
            }
            if size == 0 {
                while try !readLine().isEmpty {}
                return (body, false)
            }
            if size > limit - body.count {
                body.append(contentsOf: try readExactly(limit - body.count))
                return (body, true)
            }
            body.append(contentsOf: try readExactly(size))
            _ = try readLine()
        }
    }

    /// Parses `HTTP/1.x SSS reason` and the field lines.
    /// The body length a response declares with `Content-Length`; nil without one.
    static func declaredLength(of headers: HTTPHeaders) throws(ClientError) -> Int? {
        do {
            return try headers.contentLength()
        } catch {
            throw ClientError(.malformedResponse, "bad Content-Length '\(error.value)'")
        }
    }

    static func parseHead(_ head: [UInt8]) throws(ClientError) -> HTTPClientResponse {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { throw ClientError(.malformedResponse, "empty response head") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3, let status = Int(parts[1])
        else {
            throw ClientError(.malformedResponse, "bad status line '\(statusLine)'")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw ClientError(.malformedResponse, "bad header line '\(line)'")
            }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces)
        }
        return HTTPClientResponse(status: status, headers: headers)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

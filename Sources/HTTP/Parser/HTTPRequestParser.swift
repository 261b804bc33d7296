import Glibc

/// An HTTP/1.1 request parser (RFC 9112) as a state machine without I/O.
///
/// Feed bytes in any chunking with `append(_:)`, then call `next()` until it returns `.needMoreData`.
/// Bytes after a complete request stay buffered for the next one, so pipelining is safe.
/// After a `.reject` the connection must answer with that status and close; the parser stays rejected.
package struct HTTPRequestParser: Sendable {
    /// What `next()` found in the buffered bytes.
    package enum Result: Sendable {
        /// No complete request yet; feed more bytes.
        case needMoreData
        /// One complete request; call `next()` again for a pipelined one.
        case request(HTTPRequest)
        /// The request is malformed or over a limit; answer `status` and close.
        case reject(status: Int, reason: String)
    }

    /// Size limits; over them the parser rejects with 431 (head) or 413 (body).
    package struct Limits: Sendable {
        package var maxHeaderBytes: Int
        package var maxBodyBytes: Int
        package init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxBodyBytes = maxBodyBytes
        }
    }

    enum State: Sendable {
        /// Waiting for a complete request head (request line and fields up to the empty line).
        /// → `.head` (a head without body was delivered), → `.body` (head with Content-Length > 0),
        /// → `.rejected` (malformed head or over a limit).
        case head
        /// Collecting `length` body bytes for `request`.
        /// → `.head` (the request was delivered). Body bytes are opaque, so there is no reject here.
        case body(request: HTTPRequest, length: Int)
        /// Terminal: the reject was returned and the connection is to be closed. No transitions.
        case rejected(status: Int, reason: String)
    }

    package let limits: Limits
    /// Copied into every request.
    package var remoteAddress: String
    var buffer: [UInt8] = []
    /// Index of the first unconsumed byte in `buffer`.
    var start = 0
    /// Where the search for the end of the head resumes, so drip-fed heads are scanned once.
    var scanned = 0
    var state: State = .head
    /// Set when a head with `Expect: 100-continue` is waiting for its body; see `takeContinueRequest()`.
    var continueRequested = false
    /// The field list each head is parsed into. The request holds a copy; once it is gone (the answer
    /// sent), this one is the only owner again and the next head reuses its storage.
    var fields = HTTPHeaders(reservingCapacity: 8)

    package init(limits: Limits = Limits(), remoteAddress: String = "-") {
        self.limits = limits
        self.remoteAddress = remoteAddress
    }

    /// Whether bytes of an unfinished request are buffered (drives the header/body timeouts).
    package var hasPartialRequest: Bool {
        if case .body = state { return true }
        return start < buffer.count
    }

    /// Whether the current request's head is complete and its body is being collected.
    package var isReadingBody: Bool {
        if case .body = state { return true }
        return false
    }

    /// True once per head that asked for `Expect: 100-continue` and whose body has not arrived:
    /// the caller then sends `HTTP/1.1 100 Continue` (RFC 9110 §10.1.1).
    package mutating func takeContinueRequest() -> Bool {
        defer { continueRequested = false }
        return continueRequested
    }

    /// How far the next request has come (drives the session's header and body timeouts).
    package enum Progress: Sendable {
        /// Nothing of the next request is buffered.
        case idle
        /// Part of a head is buffered.
        case head
        /// The head is complete and its body is being collected.
        case body
    }

    /// `takeContinueRequest()` and the progress of the next request in one call: what the session needs
    /// when it waits for more bytes.
    package mutating func takeWaitingState() -> (sendContinue: Bool, progress: Progress) {
        let sendContinue = continueRequested
        continueRequested = false
        if case .body = state { return (sendContinue, .body) }
        return (sendContinue, start < buffer.count ? .head : .idle)
    }

    /// Buffers received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Buffers received bytes.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops consumed bytes once they fill 4 KiB, keeping capacity so a keep-alive connection does not
    /// reallocate; small requests are appended after the consumed ones meanwhile, so most appends do
    /// not move or clear anything.
    mutating func compact() {
        if start < 4096 { return }
        if start >= buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        } else if start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanned = max(0, scanned - start)
            start = 0
        }
    }

    /// Parses the next request from the buffered bytes.
    package mutating func next() -> Result {
        switch state {
        case .rejected(let status, let reason):
            return .reject(status: status, reason: reason)
        case .body(let request, let length):
            return takeBody(for: request, length: length)
        case .head:
            return parseHead()
        }
    }

    mutating func reject(_ status: Int, _ reason: String) -> Result {
        state = .rejected(status: status, reason: reason)
        continueRequested = false
        return .reject(status: status, reason: reason)
    }

    mutating func takeBody(for request: consuming HTTPRequest, length: Int) -> Result {
        guard buffer.count - start >= length else {
            state = .body(request: request, length: length)
            return .needMoreData
        }
        request.body = Array(buffer[start..<(start + length)])
        start += length
        scanned = start
        state = .head
        continueRequested = false
        return .request(request)
    }

    mutating func parseHead() -> Result {
        skipLeadingEmptyLines()
        let headEnd: Int?
        switch scanHead() {
        case .bareLineFeed:
            // A head terminated by bare LFs would never contain CRLF CRLF and would sit until the header
            // timeout; RFC 9112 §2.2 lets a server refuse bare LF instead of guessing, which also removes a
            // request-smuggling ambiguity with proxies that accept it.
            return reject(400, "bare LF line ending in request head")
        case .end(let end):
            headEnd = end
        case .incomplete:
            headEnd = nil
        }
        guard let headEnd else {
            if buffer.count - start > limits.maxHeaderBytes {
                return reject(431, "request header fields too large")
            }
            return .needMoreData
        }
        if headEnd - start > limits.maxHeaderBytes {
            return reject(431, "request header fields too large")
        }
        var framing = HeadParser.Framing()
        do {
            let request = try buffer.withUnsafeBufferPointer { all throws(HeadParser.Failure) in
                try HeadParser.parse(
                    UnsafeBufferPointer(rebasing: all[start..<(headEnd - 2)]), limits: limits,
                    remoteAddress: remoteAddress, headers: &fields, framing: &framing)
            }
            start = headEnd
            scanned = headEnd
            if framing.contentLength == 0 {
                return .request(request)
            }
            let result = takeBody(for: request, length: framing.contentLength)
            if case .needMoreData = result, framing.expectsContinue {
                continueRequested = true
            }
            return result
        } catch {
            return reject(error.status, error.reason)
        }
    }

    /// RFC 9112 §2.2: a server SHOULD ignore at least one empty line before the request line.
    mutating func skipLeadingEmptyLines() {
        while buffer.count - start >= 2 && buffer[start] == ASCII.cr && buffer[start + 1] == ASCII.lf {
            start += 2
        }
        if scanned < start { scanned = start }
    }

    /// What `scanHead()` found in the bytes not yet scanned.
    enum HeadScan {
        /// No `CRLF CRLF` yet (and no bare LF).
        case incomplete
        /// The index just past the `CRLF CRLF` ending the head.
        case end(Int)
        /// An LF not preceded by CR before the end of the head.
        case bareLineFeed
    }

    /// Finds the `CRLF CRLF` ending the head and refuses a bare LF before it, in one pass over the bytes
    /// not scanned before (each LF is found with `memchr` and judged by the bytes before it); remembers
    /// how far it looked, so drip-fed heads are scanned once.
    mutating func scanHead() -> HeadScan {
        let from = max(start, scanned)
        let start = self.start
        let found: HeadScan = buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return .incomplete }
            var i = from
            let end = bytes.count
            while i < end, let hit = memchr(base + i, Int32(ASCII.lf), end - i) {
                let lf = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if lf == start || bytes[lf - 1] != ASCII.cr { return .bareLineFeed }
                if lf - 3 >= start && bytes[lf - 3] == ASCII.cr && bytes[lf - 2] == ASCII.lf { return .end(lf + 1) }
                i = lf + 1
            }
            return .incomplete
        }
        if case .incomplete = found { scanned = buffer.count }
        return found
    }
}

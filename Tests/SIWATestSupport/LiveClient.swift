import Glibc
import HTTPServer

/// Serves a responder on a loopback port and sends each request over a fresh TCP connection.
public final class LiveClient: TestClient, @unchecked Sendable {
    // @unchecked: `server` is only started in init and stopped in `stop()`; HTTPServer is thread-safe.
    let server: HTTPServer
    public let port: Int

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(responder: any HTTPResponder) throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.eventLoops = 1
        server = HTTPServer(configuration: configuration, responder: responder)
        try server.start()
        port = server.port
    }

    public func stop() { server.shutdown() }

    public func send(_ request: HTTPRequest) throws -> TestResponse {
        var head = "\(request.method) \(request.target) HTTP/1.1\r\n"
        var hasHost = false
        for (name, value) in request.headers.fields {
            if name.lowercased() == "host" { hasHost = true }
            if name.lowercased() == "content-length" || name.lowercased() == "connection" { continue }
            head += "\(name): \(value)\r\n"
        }
        if !hasHost { head += "Host: 127.0.0.1:\(port)\r\n" }
        if !request.body.isEmpty || request.method == "POST" { head += "Content-Length: \(request.body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let bytes = Array(head.utf8) + request.body
        let raw = try exchange(bytes)
        return try Self.parse(raw)
    }

    private func exchange(_ bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed: errno \(errno)") }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return received
    }

    static func parse(_ raw: [UInt8]) throws -> TestResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let split = (0..<max(0, raw.count - 3)).first(where: { Array(raw[$0..<$0 + 4]) == separator }) else {
            throw Failure(description: "no complete response head in \(raw.count) bytes")
        }
        let head = String(decoding: raw[..<split], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.add(String(line[..<colon]), String(value))
        }
        var body = Array(raw[(split + 4)...])
        if let length = headers["Content-Length"].flatMap({ Int($0) }), length <= body.count {
            body = Array(body[..<length])
        }
        return TestResponse(status: status, headers: headers, body: body)
    }
}

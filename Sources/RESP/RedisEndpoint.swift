import KindedErrors

/// Where a Redis server is and how to log in: `redis://[user:password@]host:port[/db]`
/// (https://www.iana.org/assignments/uri-schemes/prov/redis). Percent-escapes in user and password are
/// decoded; an IPv6 host is written in brackets.
package struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var user: String?
    package var password: String?
    package var database: Int

    package init(host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses a `redis://` URL, or says precisely what is wrong with it.
    package init(url text: String) throws(RedisError) {
        func bad(_ why: String) -> RedisError {
            RedisError(.invalidURL, "'\(Self.redacted(text))' is not a Redis URL: \(why)")
        }
        guard text.hasPrefix("redis://") else {
            if text.hasPrefix("rediss://") { throw bad("TLS (rediss://) is not supported: use redis://") }
            throw bad("must start with redis://")
        }
        var rest = Substring(text.dropFirst("redis://".count))
        // Credentials first, up to the last `@`: a password may hold `/` or `@`, and no message below
        // may quote any part of it.
        var credentials: Substring?
        if let at = rest.lastIndex(of: "@") {
            credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.count <= 5, let number = Int(path), number >= 0 else {
                    throw bad("database '\(path)' is not a number from 0")
                }
                database = number
            }
        }
        var user: String?
        var password: String?
        if let credentials {
            if let colon = credentials.firstIndex(of: ":") {
                let name = String(credentials[..<colon])
                user = name.isEmpty ? nil : try Self.decoded(name, bad)
                password = try Self.decoded(String(credentials[credentials.index(after: colon)...]), bad)
            } else {
                password = try Self.decoded(String(credentials), bad)
            }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("unclosed [ in the host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw bad("junk after ]")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { throw bad("no host") }
        var port = 6379
        if let portText {
            guard portText.count <= 5, let number = Int(portText), (1...65535).contains(number) else {
                throw bad("port '\(portText)' is not 1-65535")
            }
            port = number
        }
        self.init(host: String(host), port: port, user: user, password: password, database: database)
    }

    /// The URL with the password replaced by `***` (for logs and errors).
    package var description: String {
        let credentials = password == nil ? "" : "\(user ?? ""):***@"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(credentials)\(shownHost):\(port)/\(database)"
    }

    /// `text` with whatever precedes its last `@` after the scheme (user and password) replaced by `***`,
    /// whatever the scheme (`rediss://`, `redis+sentinel://`, a typo) and with none at all.
    package static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@") else { return text }
        let scheme = text.firstRange(of: "://").map { text[..<$0.upperBound] } ?? ""
        guard scheme.endIndex <= at else { return "***@" + text[text.index(after: at)...] }
        return scheme + "***@" + text[text.index(after: at)...]
    }

    static func decoded(_ text: String, _ bad: (String) -> RedisError) throws(RedisError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { throw bad("bad percent-escape in the credentials") }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A Redis operation failed: the server cannot be reached, did not answer in time, broke the protocol,
/// or answered an error (the one kinded error shape, `KindedError`).
package typealias RedisError = KindedError<RedisErrorKind>

package enum RedisErrorKind: String, Sendable, Equatable {
    case invalidURL = "invalid_url"
    /// Connect failed, the connection dropped, or the client is backing off after such a failure.
    case unreachable
    case timeout
    /// The reply was not RESP.
    case protocolError = "protocol_error"
    /// The server answered `-ERR …` (e.g. a wrong password at login).
    case server
}

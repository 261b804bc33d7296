import Testing

@testable import RESP

/// The RESP reply parser: every reply type, the same values whatever the chunking (down to one byte at
/// a time), and a precise reject for malformed or oversized input.
@Suite struct RESPParserTests {
    static let stream =
        "+OK\r\n-ERR wrong\r\n:-42\r\n$5\r\nhe\r\nl\r\n$0\r\n\r\n$-1\r\n*-1\r\n*0\r\n"
        + "*3\r\n:1\r\n*2\r\n+a\r\n$1\r\nb\r\n_\r\n"
        + "%1\r\n+key\r\n#t\r\n#f\r\n,3.5\r\n(12345678901234567890123\r\n=7\r\ntxt:abc\r\n!4\r\nNOPE\r\n~1\r\n:7\r\n>1\r\n+p\r\n"

    static let expected: [RESPValue] = [
        .simpleString("OK"), .error("ERR wrong"), .integer(-42), .bulkString(Array("he\r\nl".utf8)),
        .bulkString([]), .null, .null, .array([]),
        .array([.integer(1), .array([.simpleString("a"), .bulkString(Array("b".utf8))]), .null]),
        .map([.simpleString("key"), .boolean(true)]), .boolean(false), .double(3.5),
        .bigNumber("12345678901234567890123"), .bulkString(Array("txt:abc".utf8)), .error("NOPE"),
        .array([.integer(7)]), .array([.simpleString("p")]),
    ]

    static func parse(_ bytes: [UInt8], chunk: Int, limits: RESPParser.Limits = .init()) -> (
        [RESPValue], RESPParser.Outcome
    ) {
        var parser = RESPParser(limits: limits)
        var values: [RESPValue] = []
        var offset = 0
        var last = RESPParser.Outcome.needMoreData
        repeat {
            parser.feed(bytes[offset..<min(offset + chunk, bytes.count)])
            offset += chunk
            while true {
                last = parser.next()
                guard case .value(let value) = last else { break }
                values.append(value)
            }
            if case .reject = last { break }
        } while offset < bytes.count
        return (values, last)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func everyTypeWhateverTheChunking(chunk: Int) {
        let (values, last) = Self.parse(Array(Self.stream.utf8), chunk: chunk)
        #expect(values == Self.expected)
        #expect(last == .needMoreData)
    }

    @Test func aPartialReplyWaitsForItsLastByte() {
        var parser = RESPParser()
        let bytes = Array("*2\r\n$3\r\nabc\r\n:5\r\n".utf8)
        for byte in bytes.dropLast() {
            parser.feed([byte])
            #expect(parser.next() == .needMoreData)
        }
        parser.feed([bytes.last!])
        #expect(parser.next() == .value(.array([.bulkString(Array("abc".utf8)), .integer(5)])))
    }

    @Test(arguments: [
        ("?x\r\n", "unknown type byte 63"),
        (":12a\r\n", "bad integer"),
        (":99999999999999999999\r\n", "bad integer"),
        ("$3\r\nabcd\r\n", "bulk string of 3 bytes not followed by CRLF"),
        ("$-2\r\n", "bad bulk length"),
        ("*-5\r\n", "bad aggregate length"),
        ("#x\r\n", "bad boolean"),
        ("_x\r\n", "bad null"),
        ("(12a\r\n", "bad big number"),
        ("=-1\r\n", "bad bulk length"),
        ("\r\n", "empty line"),
        ("*1\r\n\r\n", "empty line"),
    ])
    func malformedInputIsRejectedPrecisely(input: String, reason: String) {
        let (_, last) = Self.parse(Array(input.utf8), chunk: 1)
        #expect(last == .reject(reason))
    }

    @Test func limitsAreCheckedBeforeAnythingIsAllocated() {
        var limits = RESPParser.Limits()
        limits.maxBulkBytes = 10
        limits.maxElements = 4
        limits.maxDepth = 2
        limits.maxLineBytes = 8
        #expect(Self.parse(Array("$11\r\n".utf8), chunk: 1, limits: limits).1 == .reject("bulk string over 10 bytes"))
        #expect(
            Self.parse(Array("*5\r\n".utf8), chunk: 1, limits: limits).1
                == .reject("aggregate of 5 elements is over the limit"))
        #expect(
            Self.parse(Array("*1\r\n*1\r\n*1\r\n".utf8), chunk: 1, limits: limits).1 == .reject("nested deeper than 2"))
        #expect(
            Self.parse(Array("+123456789".utf8), chunk: 1, limits: limits).1 == .reject("line longer than 8 bytes"))
    }

    /// Arrays of a million elements are 10 bytes of header each, and ~60 MiB parsed: the elements are
    /// charged (64 bytes each) against the 64 MiB bound when a header announces them, so a second such
    /// array inside the reply is refused before anything of it is allocated (issue #21: 2 million empty
    /// strings, 6 MB on the wire and under the bound, cost +283 MiB).
    @Test func elementsAreChargedAgainstTheReplyBoundWhenAnnounced() {
        var parser = RESPParser()
        parser.feed(Array("*2\r\n*1000000\r\n".utf8))
        #expect(parser.next() == .needMoreData)
        parser.feed(Array("*1000000\r\n".utf8))
        guard case .reject(let reason) = parser.next() else {
            Issue.record("the second million elements were accepted")
            return
        }
        #expect(reason.hasPrefix("reply too large"))
        // At a bound of 1,000 bytes: 14 elements (896 B charged + 47 on the wire) fit, 16 (1,024 B) are
        // refused at their header; each reply starts from zero.
        var small = RESPParser.Limits()
        small.maxReplyBytes = 1_000
        let fourteen = "*14\r\n" + String(repeating: "+\r\n", count: 14)
        let (values, last) = Self.parse(Array((fourteen + fourteen).utf8), chunk: 7, limits: small)
        #expect(values.count == 2 && last == .needMoreData)
        #expect(Self.parse(Array("*16\r\n".utf8), chunk: 1, limits: small).1 != .needMoreData)
    }

    @Test func aRejectIsSticky() {
        var parser = RESPParser()
        parser.feed(Array("?\r\n+OK\r\n".utf8))
        #expect(parser.next() == .reject("unknown type byte 63"))
        #expect(parser.next() == .reject("unknown type byte 63"))
    }

    @Test func commandsAreArraysOfBulkStrings() {
        #expect(RESPCommand.encode(["SET", "k", "é"]) == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n".utf8))
        let (values, _) = Self.parse(RESPCommand.encode(["GET", ""]), chunk: 1)
        #expect(values == [.array([.bulkString(Array("GET".utf8)), .bulkString([])])])
    }
}

@Suite struct RedisEndpointTests {
    @Test func parsesEveryPart() throws {
        let full = try RedisEndpoint(url: "redis://me:p%40ss@cache.local:6380/3")
        #expect(full == RedisEndpoint(host: "cache.local", port: 6380, user: "me", password: "p@ss", database: 3))
        #expect(full.description == "redis://me:***@cache.local:6380/3")
        #expect(try RedisEndpoint(url: "redis://127.0.0.1") == RedisEndpoint(host: "127.0.0.1"))
        #expect(
            try RedisEndpoint(url: "redis://:secret@[::1]:7000/")
                == RedisEndpoint(host: "::1", port: 7000, password: "secret"))
    }

    @Test(arguments: [
        ("http://h:1", "must start with redis://"),
        ("redis://h:0", "port '0' is not 1-65535"),
        ("redis://h:1/x", "database 'x' is not a number from 0"),
        ("redis://:1", "no host"),
        ("redis://u:%zz@h", "bad percent-escape in the credentials"),
        ("rediss://h:1", "TLS (rediss://) is not supported: use redis://"),
    ])
    func refusesWithAReason(url: String, reason: String) {
        #expect(throws: RedisError(.invalidURL, "'\(RedisEndpoint.redacted(url))' is not a Redis URL: \(reason)")) {
            try RedisEndpoint(url: url)
        }
    }

    /// No message quotes any part of a password, whatever the scheme (issue #21: `rediss://user:PW@…`
    /// was printed whole) and wherever the password has a `/` or `@`.
    @Test(arguments: [
        "rediss://user:PW@cache:6380", "redis+sentinel://user:PW@h", "http://:PW@h", "user:PW@h:1",
        "redis://u:P/PW@h:0", "redis://:P@PW@h:99999", "redis://u:PW@h/x", "rediss://PW@h",
    ])
    func aPasswordIsNeverInAMessage(url: String) {
        do {
            _ = try RedisEndpoint(url: url)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(!error.message.contains("PW"), "\(error.message)")
            #expect(error.message.contains("***@"), "\(error.message)")
        }
    }
}

/// One reply of the Redis serialization protocol (RESP2, and the RESP3 types a server may send):
/// https://redis.io/docs/latest/develop/reference/protocol-spec/
package indirect enum RESPValue: Sendable, Equatable {
    /// `+OK`
    case simpleString(String)
    /// `-ERR …`, and RESP3 blob errors (`!`).
    case error(String)
    /// `:42`
    case integer(Int64)
    /// `$5 hello` (RESP3 verbatim strings `=` keep their `txt:` prefix).
    case bulkString([UInt8])
    /// `$-1`, `*-1` and RESP3 `_`.
    case null
    /// `*n`, RESP3 sets `~n` and pushes `>n`.
    case array([RESPValue])
    /// RESP3 `%n`: keys and values alternate.
    case map([RESPValue])
    /// RESP3 `#t` / `#f`.
    case boolean(Bool)
    /// RESP3 `,3.14` (also `inf`, `-inf`, `nan`).
    case double(Double)
    /// RESP3 `(` big number, as its decimal text.
    case bigNumber(String)

    /// The text of a simple or bulk string (UTF-8, lossy); nil for other types.
    package var string: String? {
        switch self {
        case .simpleString(let text): text
        case .bulkString(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The value of an integer reply.
    package var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The elements of an array reply.
    package var elements: [RESPValue]? {
        if case .array(let values) = self { values } else { nil }
    }
}

/// Commands as RESP arrays of bulk strings (what clients send).
package enum RESPCommand {
    /// `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument, appended to `buffer`.
    package static func encode(_ arguments: [[UInt8]], into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "*"))
        buffer.append(contentsOf: String(arguments.count).utf8)
        buffer.append(contentsOf: [13, 10])
        for argument in arguments {
            buffer.append(UInt8(ascii: "$"))
            buffer.append(contentsOf: String(argument.count).utf8)
            buffer.append(contentsOf: [13, 10])
            buffer.append(contentsOf: argument)
            buffer.append(contentsOf: [13, 10])
        }
    }

    /// One command from text arguments.
    package static func encode(_ arguments: [String]) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(arguments.map { Array($0.utf8) }, into: &buffer)
        return buffer
    }
}

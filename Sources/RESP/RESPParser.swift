/// A sans-I/O parser of RESP replies: feed it bytes as they arrive, then ask for complete values.
///
/// States: reading a type line (`+ - : $ * _ # , ( = ! % ~ >` up to CRLF) → a value, an open aggregate
/// (pushed on `open`, closed when its last element arrives) or a bulk body; reading a bulk body of a
/// known length → a value once `length + 2` bytes (the CRLF) are there. Each byte is examined once,
/// whatever the chunking, and every count and length is bounded before it is used (`Limits`): a reply's
/// memory is charged against `maxReplyBytes` before it is allocated.
package struct RESPParser: Sendable {
    package enum Outcome: Sendable, Equatable {
        case needMoreData
        case value(RESPValue)
        /// Not RESP, or over a limit. The stream cannot be resynchronised: close the connection.
        case reject(String)
    }

    package struct Limits: Sendable {
        /// Largest bulk string (Redis' own default proto-max-bulk-len is 512 MiB; replies here are small).
        package var maxBulkBytes = 16 << 20
        /// Most elements in one aggregate.
        package var maxElements = 1 << 20
        /// Deepest nesting of aggregates.
        package var maxDepth = 16
        /// Longest type line (simple strings, errors, numbers).
        package var maxLineBytes = 64 << 10
        /// Most bytes one top-level reply may cost: its bytes on the wire plus `bytesPerValue` for every
        /// element of its aggregates, charged when an aggregate's header announces them, before any is
        /// allocated. So a reply of many tiny values (`+\r\n` is 3 bytes, its parsed value ~60) takes no
        /// more memory than this bound allows.
        package var maxReplyBytes = 64 << 20
        /// What one element is charged besides its bytes: about what a parsed `RESPValue` costs in memory
        /// (an array slot and a boxed payload).
        package var bytesPerValue = 64

        package init() {}
    }

    enum Aggregate { case array, map }

    struct Frame {
        var kind: Aggregate
        var remaining: Int
        var elements: [RESPValue]
    }

    enum BulkKind { case string, verbatim, error }

    let limits: Limits
    var buffer: [UInt8] = []
    var offset = 0
    /// Where the CRLF search resumes (bytes before it hold no CRLF for the current line).
    var scanFrom = 0
    var stack: [Frame] = []
    var bulk: (kind: BulkKind, length: Int)?
    /// Bytes consumed by the reply in progress.
    var replyBytes = 0
    var failure: String?

    package init(limits: Limits = Limits()) { self.limits = limits }

    /// Appends received bytes.
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if offset > 4096 && offset * 2 > buffer.count {
            buffer.removeFirst(offset)
            scanFrom -= offset
            offset = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a returned value.
    package var bufferedByteCount: Int { buffer.count - offset }

    /// The next complete reply, `.needMoreData`, or `.reject` (sticky).
    package mutating func next() -> Outcome {
        if let failure { return .reject(failure) }
        while true {
            let step = parseOne()
            switch step {
            case .needMoreData: return .needMoreData
            case .reject(let reason):
                failure = reason
                return .reject(reason)
            case .value(let value):
                if let finished = close(value) {
                    replyBytes = 0
                    return .value(finished)
                }
            case .opened:
                continue
            }
        }
    }

    enum Step {
        case needMoreData
        case value(RESPValue)
        case opened
        case reject(String)
    }

    /// Adds a finished value to the innermost open aggregate; returns a finished top-level value.
    mutating func close(_ value: RESPValue) -> RESPValue? {
        var value = value
        while var frame = stack.popLast() {
            frame.elements.append(value)
            frame.remaining -= 1
            guard frame.remaining == 0 else {
                stack.append(frame)
                return nil
            }
            value = frame.kind == .map ? .map(frame.elements) : .array(frame.elements)
        }
        return value
    }

    mutating func parseOne() -> Step {
        if let (kind, length) = bulk {
            guard buffer.count - offset >= length + 2 else { return .needMoreData }
            guard buffer[offset + length] == 13, buffer[offset + length + 1] == 10 else {
                return .reject("bulk string of \(length) bytes not followed by CRLF")
            }
            let bytes = Array(buffer[offset..<offset + length])
            try? consume(length + 2)
            bulk = nil
            switch kind {
            case .string, .verbatim: return .value(.bulkString(bytes))
            case .error: return .value(.error(String(decoding: bytes, as: UTF8.self)))
            }
        }
        guard let lineEnd = findCRLF() else {
            if buffer.count - offset > limits.maxLineBytes {
                return .reject("line longer than \(limits.maxLineBytes) bytes")
            }
            return .needMoreData
        }
        // A line that is only CRLF has no type byte (found by fuzz-resp).
        guard lineEnd > offset else { return .reject("empty line") }
        let type = buffer[offset]
        let line = buffer[(offset + 1)..<lineEnd]
        if let reason = consumeLine(upTo: lineEnd) { return .reject(reason) }
        return parseLine(type: type, line)
    }

    mutating func parseLine(type: UInt8, _ line: ArraySlice<UInt8>) -> Step {
        switch type {
        case UInt8(ascii: "+"): return .value(.simpleString(String(decoding: line, as: UTF8.self)))
        case UInt8(ascii: "-"): return .value(.error(String(decoding: line, as: UTF8.self)))
        case UInt8(ascii: ":"):
            guard let number = Self.integer(line) else { return .reject("bad integer") }
            return .value(.integer(number))
        case UInt8(ascii: "_"):
            return line.isEmpty ? .value(.null) : .reject("bad null")
        case UInt8(ascii: "#"):
            if line.elementsEqual([UInt8(ascii: "t")]) { return .value(.boolean(true)) }
            if line.elementsEqual([UInt8(ascii: "f")]) { return .value(.boolean(false)) }
            return .reject("bad boolean")
        case UInt8(ascii: ","):
            guard line.count <= 64, let double = Double(String(decoding: line, as: UTF8.self)) else {
                return .reject("bad double")
            }
            return .value(.double(double))
        case UInt8(ascii: "("):
            let text = String(decoding: line, as: UTF8.self)
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                return .reject("bad big number")
            }
            return .value(.bigNumber(text))
        case UInt8(ascii: "$"), UInt8(ascii: "="), UInt8(ascii: "!"):
            guard let length = Self.integer(line), length >= -1 else { return .reject("bad bulk length") }
            if length == -1 { return type == UInt8(ascii: "$") ? .value(.null) : .reject("bad bulk length") }
            guard length <= limits.maxBulkBytes else { return .reject("bulk string over \(limits.maxBulkBytes) bytes") }
            guard replyBytes + Int(length) <= limits.maxReplyBytes else { return .reject("reply too large") }
            let kind: BulkKind =
                type == UInt8(ascii: "$") ? .string : type == UInt8(ascii: "=") ? .verbatim : .error
            bulk = (kind, Int(length))
            return .opened
        case UInt8(ascii: "*"), UInt8(ascii: "~"), UInt8(ascii: ">"), UInt8(ascii: "%"):
            guard let count = Self.integer(line), count >= -1 else { return .reject("bad aggregate length") }
            if count == -1 { return type == UInt8(ascii: "*") ? .value(.null) : .reject("bad aggregate length") }
            let isMap = type == UInt8(ascii: "%")
            guard count <= Int64(isMap ? limits.maxElements / 2 : limits.maxElements) else {
                return .reject("aggregate of \(count) elements is over the limit")
            }
            let elements = Int(count) * (isMap ? 2 : 1)
            if elements == 0 { return .value(isMap ? .map([]) : .array([])) }
            guard stack.count < limits.maxDepth else { return .reject("nested deeper than \(limits.maxDepth)") }
            let charge = elements * limits.bytesPerValue
            guard replyBytes + charge <= limits.maxReplyBytes else {
                return .reject("reply too large: \(elements) more elements would pass \(limits.maxReplyBytes) bytes")
            }
            replyBytes += charge
            var frame = Frame(kind: isMap ? .map : .array, remaining: elements, elements: [])
            frame.elements.reserveCapacity(elements)
            stack.append(frame)
            return .opened
        default:
            return .reject("unknown type byte \(type)")
        }
    }

    /// Finds the CRLF ending the line at `offset`, resuming where the last search stopped.
    mutating func findCRLF() -> Int? {
        var index = max(scanFrom, offset)
        while index + 1 < buffer.count {
            if buffer[index] == 13 {
                if buffer[index + 1] == 10 { return index }
            }
            index += 1
        }
        scanFrom = max(offset, buffer.count - 1)
        return nil
    }

    mutating func consumeLine(upTo lineEnd: Int) -> String? {
        if lineEnd - offset > limits.maxLineBytes { return "line longer than \(limits.maxLineBytes) bytes" }
        do { try consume(lineEnd + 2 - offset) } catch { return "reply too large" }
        return nil
    }

    struct TooLarge: Error {}

    mutating func consume(_ count: Int) throws(TooLarge) {
        offset += count
        scanFrom = offset
        replyBytes += count
        if replyBytes > limits.maxReplyBytes { throw TooLarge() }
    }

    /// A decimal Int64 with an optional sign; nil on overflow, empty digits or other bytes.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var digits = bytes[...]
        var negative = false
        if digits.first == UInt8(ascii: "-") {
            negative = true
            digits = digits.dropFirst()
        } else if digits.first == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 48 && byte <= 57 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - 48))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return negative ? -value : value
    }
}

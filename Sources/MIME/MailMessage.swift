/// An Internet message split into its header fields and body (RFC 5322 §2.2, §3.6), tolerant of
/// what real mailers send: LF or CRLF line endings, folded fields, and a malformed line ending the
/// header section (kept in the body, as RFC 5322 §2.1 leaves undefined).
package struct MailMessage: Sendable, Equatable {
    package struct Field: Sendable, Equatable {
        /// As written (`From`, `DKIM-Signature`).
        package var name: String
        /// Unfolded: CRLF + whitespace joined into one line (RFC 5322 §2.2.3), outer spaces trimmed.
        package var value: String
    }

    /// Most header fields kept; later ones are ignored (a message cannot grow the parse unboundedly).
    package static let maxFields = 1000

    package var fields: [Field]
    /// Where the body starts in the parsed bytes.
    package var bodyOffset: Int
    package var body: ArraySlice<UInt8>

    /// The first field named `name` (case-insensitive).
    package func field(_ name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every field named `name`, in order.
    package func fields(named name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether two field names are equal ignoring case: byte by byte when both are ASCII (parsed
    /// names always are), else lowercased.
    static func sameName(_ first: String, _ second: String) -> Bool {
        var ascii = true
        var equal = first.utf8.count == second.utf8.count
        if equal {
            for (a, b) in zip(first.utf8, second.utf8) {
                guard a < 0x80, b < 0x80 else {
                    ascii = false
                    break
                }
                if a != b && (a | 0x20 != b | 0x20 || !(0x61...0x7A).contains(a | 0x20)) {
                    equal = false
                }
            }
        } else {
            ascii = first.utf8.allSatisfy { $0 < 0x80 } && second.utf8.allSatisfy { $0 < 0x80 }
        }
        return ascii ? equal : first.lowercased() == second.lowercased()
    }

    /// Header fields kept of each MIME part (`MailMessage+Parts.swift`): a part needs four, and 1000
    /// parts of 1000 fields each would hold a million.
    package static let maxPartFields = 64

    /// Parses `bytes`, keeping the first `maxFields` header fields; counted by `parseCounter`.
    package init(parsing bytes: ArraySlice<UInt8>, maxFields: Int = Self.maxFields) {
        Self.parseCounter?.add()
        self.init(reading: bytes, maxFields: maxFields)
    }

    /// `init(parsing:)` uncounted: a MIME part of a message being parsed (`MailMessage+Parts.swift`).
    init(reading bytes: ArraySlice<UInt8>, maxFields: Int) {
        var fields: [Field] = []
        var index = bytes.startIndex
        var current: (name: String, value: [UInt8])? = nil
        // Past `maxFields`, lines are only scanned for the header's end: nothing is built of them.
        var dropping = false
        func flush() {
            guard let field = current else { return }
            current = nil
            guard fields.count < maxFields else { return }
            fields.append(Field(name: field.name, value: Self.trimmed(field.value)))
        }
        while index < bytes.endIndex {
            let lineEnd = bytes[index...].firstIndex(of: 10) ?? bytes.endIndex
            var content = bytes[index..<lineEnd]
            if content.last == 13 { content = content.dropLast() }
            let next = lineEnd == bytes.endIndex ? lineEnd : lineEnd + 1
            if content.isEmpty {
                index = next
                break
            }
            if content.first == 32 || content.first == 9 {
                // A continuation line: part of the field before it.
                if dropping {
                    index = next
                    continue
                }
                if current != nil {
                    current!.value.append(32)
                    current!.value.append(contentsOf: content.drop(while: { $0 == 32 || $0 == 9 }))
                    index = next
                    continue
                }
                break
            }
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")), colon > content.startIndex,
                content[..<colon].allSatisfy({ $0 > 32 && $0 < 127 })
            else { break }
            flush()
            index = next
            if fields.count >= maxFields {
                dropping = true
                continue
            }
            current = (String(decoding: content[..<colon], as: UTF8.self), Array(content[(colon + 1)...]))
        }
        flush()
        self.fields = fields
        self.bodyOffset = index
        self.body = bytes[index...]
    }

    package init(parsing bytes: [UInt8]) { self.init(parsing: bytes[...]) }

    static func trimmed(_ bytes: [UInt8]) -> String {
        let start = bytes.firstIndex { $0 != 32 && $0 != 9 } ?? bytes.endIndex
        let end = (bytes.lastIndex { $0 != 32 && $0 != 9 }).map { $0 + 1 } ?? start
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }
}

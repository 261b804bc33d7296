/// `application/x-www-form-urlencoded` and query-string decoding (WHATWG URL §5.1: `+` is a space).
///
/// Decisions: pairs split on `&`; empty segments (`a=1&&b=2`, a trailing `&`) are skipped, as WHATWG does;
/// a name without `=` gets the value `""`; empty names (`=x`) are kept, since WHATWG keeps them and the
/// caller decides what an empty name means. Unlike WHATWG, a bad `%` escape or invalid UTF-8 is an error,
/// not a silent U+FFFD, so a mock can tell a client it sent something Apple would not parse.
package enum URLEncodedForm {
    package struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        package var message: String
        package init(message: String) { self.message = message }
        package var description: String { message }
    }

    /// Decodes `a=1&b=2` into ordered pairs. Bad percent-escapes or invalid UTF-8 throw.
    package static func decode(_ bytes: some Collection<UInt8>) throws(DecodingError) -> [(name: String, value: String)]
    {
        let input = Array(bytes)
        var pairs: [(name: String, value: String)] = []
        var segmentStart = 0
        while segmentStart <= input.count {
            var segmentEnd = segmentStart
            while segmentEnd < input.count && input[segmentEnd] != UInt8(ascii: "&") { segmentEnd += 1 }
            if segmentEnd > segmentStart {
                let segment = input[segmentStart..<segmentEnd]
                if let equals = segment.firstIndex(of: UInt8(ascii: "=")) {
                    let name = try decodeComponent(segment[segmentStart..<equals], offset: segmentStart)
                    let value = try decodeComponent(segment[(equals + 1)...], offset: equals + 1)
                    pairs.append((name, value))
                } else {
                    pairs.append((try decodeComponent(segment, offset: segmentStart), ""))
                }
            }
            segmentStart = segmentEnd + 1
        }
        return pairs
    }

    /// Decodes one name or value: `+` → space, `%XX` → byte, then strict UTF-8.
    /// - Parameter offset: where the component starts in the input, for error messages.
    package static func decodeComponent(_ component: ArraySlice<UInt8>, offset: Int) throws(DecodingError) -> String {
        // Most components (codes, tokens, client secrets) have nothing to unescape.
        if !component.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) {
            guard let text = String(validating: component, as: UTF8.self) else {
                throw DecodingError(message: "invalid UTF-8 in form component starting at byte \(offset)")
            }
            return text
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        var i = component.startIndex
        while i < component.endIndex {
            let byte = component[i]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
                i += 1
            } else if byte == UInt8(ascii: "%") {
                guard i + 2 < component.endIndex,
                    let high = hexValue(component[i + 1]), let low = hexValue(component[i + 2])
                else {
                    let shown = String(decoding: component[i..<min(i + 3, component.endIndex)], as: UTF8.self)
                    throw DecodingError(message: "invalid percent-escape '\(shown)' at byte \(i)")
                }
                bytes.append(high << 4 | low)
                i += 3
            } else {
                bytes.append(byte)
                i += 1
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DecodingError(message: "invalid UTF-8 in form component starting at byte \(offset)")
        }
        return text
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

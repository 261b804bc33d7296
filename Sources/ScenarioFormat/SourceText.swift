/// Scenario text decoded into Unicode scalars, with CRLF turned into LF and a leading BOM dropped.
///
/// Decoding rejects, with a position: invalid UTF-8, a CR not followed by LF, and characters YAML does
/// not allow in a stream (C0/C1 controls other than tab and line feed, DEL, U+FFFE, U+FFFF).
struct SourceText {
    /// The scalars; line breaks are a single `\n`.
    var scalars: [Unicode.Scalar]

    /// Decodes `bytes`, or returns the first problem found.
    static func decode(_ bytes: some Collection<UInt8>, file: String) -> Result<SourceText, ScenarioDiagnostic> {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        var line = 1
        var column = 1
        var pendingCR = false
        func failure(_ message: String) -> Result<SourceText, ScenarioDiagnostic> {
            .failure(ScenarioDiagnostic(file: file, line: line, column: column, message: message))
        }
        loop: while true {
            switch decoder.decode(&iterator) {
            case .emptyInput:
                break loop
            case .error:
                return failure("invalid UTF-8 byte sequence")
            case .scalarValue(let scalar):
                if pendingCR {
                    guard scalar == "\n" else { return failure("carriage return (CR) without a following line feed") }
                    pendingCR = false
                }
                if scalar == "\r" {
                    pendingCR = true
                    continue
                }
                if scalar == "\u{FEFF}" && scalars.isEmpty && line == 1 && column == 1 { continue }
                if !isAllowed(scalar) {
                    return failure(
                        "control character \(hex(scalar)) is not allowed (use a \\u escape in double quotes)")
                }
                scalars.append(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
        }
        if pendingCR { return failure("carriage return (CR) without a following line feed") }
        return .success(SourceText(scalars: scalars))
    }

    /// YAML's printable set (YAML 1.2 §5.1) plus tab and line feed.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: true
        case 0x20...0x7E: true
        case 0x85: true
        case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `U+000B` style rendering.
    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

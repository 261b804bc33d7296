/// RFC 5322 §3.4.1 `addr-spec = local-part "@" domain`, the form a user's address takes wherever the
/// mock writes it into mail (`To:`, `Received: … for <…>`): `local-part` a dot-atom or a quoted
/// string, `domain` a dot-atom or a domain literal; RFC 6532 §3.2's UTF-8 allowed where `atext`,
/// `qtext` and `dtext` are. Not accepted: the obsolete forms (§4.4), comments and folding white
/// space — and so never a CR, LF, NUL or other control character, which would end the header field
/// the address is written into and start another.
package enum AddrSpec {
    /// Why `text` is not an addr-spec, in words (`"holds a line feed (LF)"`), or nil when it is one.
    package static func problem(_ text: String) -> String? {
        if let control = text.unicodeScalars.first(where: isControl) {
            return "holds \(describe(control)), which would start a new header field in mail"
        }
        guard let at = lastAt(text) else { return "has no '@'" }
        let local = Array(text.unicodeScalars[..<at])
        let domain = Array(text.unicodeScalars[text.unicodeScalars.index(after: at)...])
        if local.first == "\"" {
            guard isQuotedString(local) else { return "has a malformed quoted local part" }
        } else if !isDotAtom(local) {
            return local.isEmpty ? "has nothing before '@'" : "has a local part that is not a dot-atom or quoted string"
        }
        if domain.first == "[" {
            guard domain.count >= 2, domain.last == "]",
                domain.dropFirst().dropLast().allSatisfy({ isDText($0) || $0 == " " || $0 == "\t" })
            else { return "has a malformed domain literal" }
        } else if !isDotAtom(domain) {
            return domain.isEmpty ? "has nothing after '@'" : "has a domain that is not a dot-atom or [literal]"
        }
        return nil
    }

    /// Whether `text` is an addr-spec.
    package static func isValid(_ text: String) -> Bool { problem(text) == nil }

    /// The `@` that separates local part and domain: the last one outside the quoted local part.
    static func lastAt(_ text: String) -> String.UnicodeScalarView.Index? {
        text.unicodeScalars.lastIndex(of: "@")
    }

    /// C0 controls, DEL, C1 controls and the Unicode line and paragraph separators.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\r": "a carriage return (CR)"
        case "\n": "a line feed (LF)"
        case "\0": "a NUL"
        default: "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        }
    }

    static func isAText(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value >= 0x80 { return !isControl(scalar) }
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
    }

    /// `dot-atom-text = 1*atext *("." 1*atext)`.
    static func isDotAtom(_ scalars: [Unicode.Scalar]) -> Bool {
        guard !scalars.isEmpty, scalars.first != ".", scalars.last != "." else { return false }
        var previousDot = false
        for scalar in scalars {
            if scalar == "." {
                if previousDot { return false }
                previousDot = true
            } else {
                guard isAText(scalar) else { return false }
                previousDot = false
            }
        }
        return true
    }

    /// `DQUOTE *(qtext / quoted-pair / WSP) DQUOTE`; qtext is printable but `"` and `\` (control
    /// characters are refused before; the relay's From rewrite asks this of a display name too).
    package static func isQuotedString(_ scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return false }
        var escaped = false
        for scalar in scalars.dropFirst().dropLast() {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                return false
            }
        }
        return !escaped
    }

    /// `dtext`: printable but `[`, `]` and `\`.
    static func isDText(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x20 && scalar != "[" && scalar != "]" && scalar != "\\" && !isControl(scalar)
    }
}

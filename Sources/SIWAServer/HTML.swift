import JSON

/// HTML text helpers. Everything user-controlled (state, nonce, names, redirect URIs) goes through
/// `escape` (element content and attributes) or `scriptJSON` (data inside a script element), so no value
/// can close an attribute, open a tag or end a script.
enum HTML {
    /// Escapes `& < > " '` for element content and double- or single-quoted attributes.
    static func escape(_ text: String) -> String {
        replacing(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }

    /// JSON text safe inside a `<script type="application/json">` element: `<`, `>` and `&` as `\u00XX`
    /// (no `</script>` or `<!--` can form), U+2028/U+2029 escaped; the parsed value is unchanged.
    static func scriptJSON(_ value: JSONValue) -> String {
        replacing(String(decoding: value.serialized(), as: UTF8.self)) { scalar in
            switch scalar {
            case "<": "\\u003c"
            case ">": "\\u003e"
            case "&": "\\u0026"
            case "\u{2028}": "\\u2028"
            case "\u{2029}": "\\u2029"
            default: nil
            }
        }
    }

    /// The one escaping loop: each scalar `replacement` names is replaced, the rest copied.
    private static func replacing(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `<input type="hidden" name="…" value="…">`
    static func hiddenInput(name: String, value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
    }

    static func page(title: String, body: String, style: String? = nil, icon: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>\(escape(title))</title>\(style.map { "<style>\($0)</style>" } ?? "")\
        \(icon.map { #"<link rel="icon" href="\#(escape($0))">"# } ?? "")</head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}

import JSON

/// HTML text helpers. Everything user-controlled (state, nonce, names, redirect URIs) goes through
/// `escape` (element content and attributes) or `scriptJSON` (data inside a script element), so no value
/// can close an attribute, open a tag or end a script.
enum HTML {
    /// Escapes `& < > " '` for element content and double- or single-quoted attributes.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// JSON text safe inside a `<script type="application/json">` element: `<`, `>` and `&` as `\u00XX`
    /// (no `</script>` or `<!--` can form), U+2028/U+2029 escaped; the parsed value is unchanged.
    static func scriptJSON(_ value: JSONValue) -> String {
        var out = ""
        for scalar in String(decoding: value.serialized(), as: UTF8.self).unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `<input type="hidden" name="…" value="…">`
    static func hiddenInput(name: String, value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
    }

    static func page(title: String, body: String, style: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>\(escape(title))</title>\(style.map { "<style>\($0)</style>" } ?? "")</head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}

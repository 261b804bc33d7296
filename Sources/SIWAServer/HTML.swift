/// HTML text helpers. Everything user-controlled (state, nonce, names, redirect URIs) goes through
/// `escape` so no value can close an attribute or open a tag.
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

    /// `<input type="hidden" name="…" value="…">`
    static func hiddenInput(name: String, value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">"
    }

    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>\(escape(title))</title></head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}

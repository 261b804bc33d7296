import HTTP
import JOSE
import SIWACore
import ScenarioModel

/// Client credentials from an `Authorization: Basic` header (RFC 6749 §2.3.1), merged into the form
/// fields when the scenario's `client_authentication` is `post_or_basic`.
enum ClientCredentials {
    enum Failure: Error, Equatable {
        /// The header is not `Basic base64(id:secret)` with form-urlencoded parts.
        case malformed
        /// The body carries credentials too (TN3107: multiple credentials or auth mechanisms).
        case multipleMechanisms
    }

    /// `form` with `client_id` and `client_secret` taken from a Basic header when the setting allows it;
    /// `form` unchanged when it does not or when there is no Basic header.
    static func merging(
        basicFrom request: HTTPRequest, into form: [(name: String, value: String)],
        method: ScenarioSettings.ClientAuthentication
    ) throws(Failure) -> [(name: String, value: String)] {
        guard method == .postOrBasic, let header = request.headers.authorization else { return form }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return form }
        if form.contains(where: { $0.name == "client_id" || $0.name == "client_secret" }) {
            throw .multipleMechanisms
        }
        // Standard base64 with padding → base64url without it, which JOSE decodes strictly.
        var text = String(parts[1]).trimmingCharacters(" ")
        while text.hasSuffix("=") { text.removeLast() }
        let urlSafe = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        guard let bytes = Base64URL.decode(urlSafe), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformed
        }
        do {
            // RFC 6749 §2.3.1: both parts are form-urlencoded before joining.
            let id = try URLEncodedForm.decode(Array("v=".utf8) + bytes[..<colon]).first?.value ?? ""
            let secret = try URLEncodedForm.decode(Array("v=".utf8) + bytes[(colon + 1)...]).first?.value ?? ""
            return form + [("client_id", id), ("client_secret", secret)]
        } catch {
            throw .malformed
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(_ character: Character) -> String {
        var view = Substring(self)
        while view.first == character { view.removeFirst() }
        while view.last == character { view.removeLast() }
        return String(view)
    }
}

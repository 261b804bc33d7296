import HTTP
import JSON
import SIWACore

/// Clients' redirect URIs at run time (docs/control-api.md, "Clients").
extension ControlEndpoints {
    /// `POST /mock/clients/{id}/redirect-uris {"redirect_uri": "http://…"}`: 200
    /// `{"client_id", "redirect_uris": […]}` with the URI registered (again, if it already was).
    func addRedirectURI(_ clientID: String, _ context: inout RequestContext) throws(ControlFailure) -> HTTPResponse {
        let body = try context.json(required: true)
        try body.allowOnly(["redirect_uri"])
        guard let uri = try body.string("redirect_uri") else { throw .invalid("redirect_uri", "is required") }
        let uris: [String]
        do throws(ProviderChangeError) {
            uris = try provider.addRedirectURI(uri, toClient: clientID)
        } catch {
            throw ControlFailure(error)
        }
        return Self.ok(
            JSONObject([("client_id", .string(clientID)), ("redirect_uris", .array(uris.map { .string($0) }))]))
    }
}

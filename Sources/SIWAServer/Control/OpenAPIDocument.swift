/// The OpenAPI 3 document served at `/mock/openapi.json` (control API and Apple's endpoints).
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array(text.utf8)
    static let text = "{}"
}

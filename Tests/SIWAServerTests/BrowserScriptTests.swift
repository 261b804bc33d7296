import HTTP
import SIWATestSupport
import Testing

/// Sign in with Apple JS at Apple's path: served from memory, ≤ 15 KB, with ETag and Cache-Control.
@Suite struct BrowserScriptTests {
    static func script(_ locale: String = "en_US", etag: String? = nil) -> HTTPRequest {
        var request = RequestBuilder.get("/appleauth/static/jsapi/appleid/1/\(locale)/appleid.auth.js")
        if let etag { request.headers.add("If-None-Match", etag) }
        return request
    }

    @Test(arguments: Transport.allCases)
    func servedWithValidatorsAndRevalidated(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let response = try h.send(Self.script())
            #expect(response.status == 200 && response.headers["Content-Type"] == "text/javascript;charset=UTF-8")
            #expect(response.body.count <= 15 * 1024)
            #expect(response.text.contains("AppleID.auth = { init: init, signIn: signIn, renderButton: renderButton }"))
            #expect(response.headers["Cache-Control"] == "public, max-age=3600")
            let etag = try #require(response.headers["ETag"])
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            for condition in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let revalidated = try h.send(Self.script(etag: condition))
                #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.headers["ETag"] == etag)
            }
            #expect(try h.send(Self.script(etag: "\"other\"")).status == 200)
            #expect(try h.send(Self.script("fr_FR")).headers["ETag"] == etag, "one script for every locale")
            #expect(try h.send(Self.script("..")).status == 404)
            #expect(try h.send(Self.script("en_US_x")).status == 404)
        }
    }
}

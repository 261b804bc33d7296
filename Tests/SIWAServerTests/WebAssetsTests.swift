import Foundation
import HTTP
import SIWATestSupport
import Testing

@testable import SIWAServer

/// The files under `web/` as the binary serves them (web/README.md): embedded byte for byte, every inline
/// script and style allowed by the hash of exactly what the page carries, the dashboard's markers filled.
@Suite struct WebAssetsTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("web")

    /// What `web/embed.py --check` checks in CI, here too for a developer who edits a file and runs
    /// `swift test` without regenerating.
    @Test func embeddedTextIsTheFileByteForByte() throws {
        let embedded = [
            ("appleid/appleid.auth.js", WebAssets.appleIDAuthScript), ("authorize/sheet.css", WebAssets.sheetStyle),
            ("authorize/form-post.js", WebAssets.formPostScript),
            ("authorize/web-message.js", WebAssets.webMessageScript),
            ("dashboard/dashboard.html", WebAssets.dashboardBody),
            ("dashboard/sign-in.html", WebAssets.dashboardSignInBody),
            ("dashboard/dashboard.js", WebAssets.dashboardScript),
            ("dashboard/dashboard.css", WebAssets.dashboardStyle),
            ("dashboard/icon.svg", WebAssets.dashboardIcon),
        ]
        for (name, text) in embedded {
            let file = try #require(FileManager.default.contents(atPath: Self.web.appendingPathComponent(name).path))
            #expect(Array(file) == Array(text.utf8), "web/\(name) changed: run python3 web/embed.py")
        }
    }

    /// The text between `<tag>` (no attributes) and `</tag>`, each occurrence.
    static func elements(_ tag: String, in html: String) -> [String] {
        html.components(separatedBy: "<\(tag)>").dropFirst().compactMap {
            $0.components(separatedBy: "</\(tag)>").first
        }
    }

    @Test(arguments: Transport.allCases)
    func inlineScriptsAndStylesAreAllowedByTheirHashes(_ transport: Transport) throws {
        try EndpointHarness.run(transport) { h in
            let pages = [
                ("account chooser", try h.send(RequestBuilder.authorize()), "style"),
                ("consent sheet", try h.send(RequestBuilder.authorize(extra: [("account", "alice")])), "style"),
                ("form_post", try h.send(RequestBuilder.authorize(extra: [("login_hint", "alice")])), "script"),
                (
                    "web_message",
                    try h.send(RequestBuilder.authorize(responseMode: "web_message", extra: [("login_hint", "bob")])),
                    "script"
                ),
            ]
            for (name, page, tag) in pages {
                #expect(page.status == 200, "\(name)")
                let inline = Self.elements(tag, in: page.text)
                let policy = try #require(page.headers["Content-Security-Policy"])
                let directive = try #require(
                    policy.split(separator: ";").first {
                        $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(tag)-src")
                    })
                #expect(inline.count == 1, "\(name): one inline \(tag)")
                for text in inline {
                    #expect(directive.contains(ContentSecurityPolicy.hash(of: text)), "\(name): \(directive)")
                }
            }
            #expect(Self.elements("style", in: pages[1].1.text) == [WebAssets.sheetStyle])
            #expect(Self.elements("script", in: pages[2].1.text) == [WebAssets.formPostScript])
            #expect(Self.elements("script", in: pages[3].1.text) == [WebAssets.webMessageScript])
        }
    }

    @Test func dashboardMarkersAreFilledAndTheSignInFieldIsTheEndpoints() {
        #expect(WebAssets.dashboardBody.components(separatedBy: DashboardAssets.signOutMarker).count == 2)
        #expect(WebAssets.dashboardSignInBody.components(separatedBy: DashboardAssets.signInErrorMarker).count == 2)
        #expect(WebAssets.dashboardSignInBody.contains(#"name="\#(DashboardEndpoints.tokenField)""#))
        let pages = [
            DashboardAssets.page.body, DashboardAssets.pageWithSignOut.body, DashboardAssets.signIn.body,
            Array(DashboardAssets.signInFailed.utf8),
        ].map { String(decoding: $0, as: UTF8.self) }
        for page in pages { #expect(!page.contains("<!--"), "a marker left in a served page") }
        #expect(!pages[0].contains(#"id="sign-out""#) && pages[1].contains(#"id="sign-out""#))
        #expect(!pages[2].contains(#"id="sign-in-error""#) && pages[3].contains(#"id="sign-in-error""#))
    }
}

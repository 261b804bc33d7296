import SIWACore
import Testing

/// The web-credentials association checks Apple's CDN makes, each problem located.
@Suite struct AppSiteAssociationTests {
    static let teams = ["ABCDE12345"]
    static let apps = ["ABCDE12345": ["com.example.app"]]

    func check(_ text: String) -> AppSiteAssociation.Report {
        AppSiteAssociation.check(Array(text.utf8), source: "aasa.json", teamIDs: Self.teams, bundleIDs: Self.apps)
    }

    @Test func aFileListingTheAppAllowsIt() {
        let report = check(
            #"{"applinks": {"details": []}, "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#)
        #expect(report.problems.isEmpty && report.allows(teamID: "ABCDE12345", bundleID: "com.example.app"))
        #expect(!report.allows(teamID: "ABCDE12345", bundleID: "com.example.other"))
    }

    @Test func invalidJSONIsLocated() {
        let report = check("{\n  \"webcredentials\": {\"apps\": [\"ABCDE12345.com.example.app\",]}\n}")
        #expect(report.problems.map(\.location) == ["aasa.json:2:60"])
        #expect(report.problems.first?.message.hasPrefix("not valid JSON") == true)
    }

    @Test func missingWebCredentialsAndTypos() {
        #expect(
            check(#"{"applinks": {"details": []}}"#).problems.first?.description
                == #"aasa.json:1:1: no 'webcredentials' key: saved passwords need {"webcredentials": {"apps": ["TEAMID.bundle.id"]}}"#
        )
        #expect(
            check(#"{"webcredential": {"apps": []}}"#).problems.first?.description
                == "aasa.json:1:1: no 'webcredentials' key (is 'webcredential' a misspelling?)")
        let typo = check("{\"webcredentials\": {\n  \"apps\": [\"ABCDE12354.com.example.app\", \"com.example.app\"]}}")
        #expect(
            typo.problems.map(\.description) == [
                "aasa.json:2:12: Team ID 'ABCDE12354' in 'ABCDE12354.com.example.app' is not the scenario's (did you mean 'ABCDE12345'?)",
                "aasa.json:2:42: 'com' in 'com.example.app' is not a Team ID (10 uppercase letters and digits)",
            ])
        #expect(
            check(#"{"webcredentials": {"apps": ["ABCDE12345.com.example.ap"]}}"#).problems.first?.message
                == "bundle ID 'com.example.ap' in 'ABCDE12345.com.example.ap' is not an app of team ABCDE12345 (did you mean 'com.example.app'?)"
        )
    }

    @Test func theSizeLimitIsApples128KB() {
        let big =
            #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "pad": ""#
            + String(repeating: "x", count: 128 * 1024) + "\"}"
        #expect(check(big).problems.first?.message.hasSuffix("at most 131072 (128 KB)") == true)
    }

    @Test func theHTTPExchangeIsJudgedLikeTheCDN() {
        #expect(
            AppSiteAssociation.checkExchange(
                url: "https://example.com/.well-known/apple-app-site-association", status: 200,
                contentType: "application/json; charset=utf-8", location: nil, bodyBytes: 10
            ).isEmpty)
        let redirect = AppSiteAssociation.checkExchange(
            url: "https://example.com/.well-known/apple-app-site-association", status: 301, contentType: "text/html",
            location: "https://www.example.com/.well-known/apple-app-site-association", bodyBytes: 0)
        #expect(redirect.map(\.location) == ["HTTP status 301"])
        #expect(redirect.first?.message.contains("does not follow redirects") == true)
        let plain = AppSiteAssociation.checkExchange(
            url: "http://example.com/.well-known/apple-app-site-association", status: 200, contentType: "text/plain",
            location: nil, bodyBytes: 200_000)
        #expect(plain.map(\.location) == ["HTTP request", "HTTP Content-Type", "HTTP body"])
    }
}

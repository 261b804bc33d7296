import JSON
import ScenarioFormat

/// Apple's rules for a domain's `/.well-known/apple-app-site-association` file as its CDN fetches it
/// for web credentials (https://developer.apple.com/documentation/xcode/supporting-associated-domains):
/// served over HTTPS with a valid certificate and no redirects, as `application/json`, at most 128 KB
/// (https://developer.apple.com/library/ios/documentation/General/Conceptual/APPSearch/RevisionHistory.html,
/// 2016-04-01), a JSON object whose `webcredentials.apps` lists `TEAMID.bundle.id` app identifiers.
///
/// Pure checks, no I/O: `siwa-mock aasa check` and the existing-account credentials path both use them.
package enum AppSiteAssociation {
    /// The largest file Apple's CDN accepts (128 KB).
    package static let maximumBytes = 128 * 1024
    /// Where the file is served.
    package static let path = "/.well-known/apple-app-site-association"

    /// One problem, located in the file (`file:line:column`) or in the HTTP exchange (`HTTP status`, …).
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package var location: String
        package var message: String

        package init(_ location: String, _ message: String) {
            self.location = location
            self.message = message
        }

        package var description: String { "\(location): \(message)" }
    }

    /// What a file says about web credentials, and every problem with it.
    package struct Report: Sendable, Equatable {
        /// `webcredentials.apps` entries, as written.
        package var webCredentialApps: [String] = []
        package var problems: [Problem] = []

        /// Whether the file lets the app `teamID.bundleID` use the domain's saved passwords.
        package func allows(teamID: String, bundleID: String) -> Bool {
            webCredentialApps.contains("\(teamID).\(bundleID)")
        }
    }

    /// Checks a file's bytes against the apps it should allow.
    /// - Parameters:
    ///   - source: names the file in locations (a path, or the URL it came from).
    ///   - teamIDs: the scenario's Team IDs (a near miss is a typo: "did you mean").
    ///   - bundleIDs: the scenario's native apps (App IDs) by team.
    package static func check(
        _ bytes: [UInt8], source: String, teamIDs: [String], bundleIDs: [String: [String]]
    ) -> Report {
        var report = Report()
        if bytes.count > maximumBytes {
            report.problems.append(
                Problem(source, "is \(bytes.count) bytes; Apple's CDN takes at most \(maximumBytes) (128 KB)"))
            return report
        }
        do {
            _ = try JSONValue.parse(bytes)
        } catch {
            report.problems.append(
                Problem("\(source):\(position(ofByte: error.offset, in: bytes))", "not valid JSON: \(error.message)"))
            return report
        }
        let root: Node
        do {
            root = try ScenarioDocument.parse(bytes: bytes, file: source).root
        } catch {
            report.problems += error.diagnostics.map { Problem("\(source):\($0.line):\($0.column)", $0.message) }
            return report
        }
        guard case .mapping(let entries) = root.kind else {
            report.problems.append(Problem(locate(root), "the file must be a JSON object"))
            return report
        }
        guard let credentials = entries.first(where: { $0.keyText == "webcredentials" })?.value else {
            let near = EditDistance.suggestion(for: "webcredentials", among: entries.map(\.keyText))
            report.problems.append(
                Problem(
                    locate(root),
                    near.map { "no 'webcredentials' key (is '\($0)' a misspelling?)" }
                        ?? "no 'webcredentials' key: saved passwords need {\"webcredentials\": {\"apps\": "
                        + "[\"TEAMID.bundle.id\"]}}"))
            return report
        }
        guard case .mapping(let fields) = credentials.kind,
            let apps = fields.first(where: { $0.keyText == "apps" })?.value, case .sequence(let items) = apps.kind
        else {
            report.problems.append(
                Problem(locate(credentials), "'webcredentials' must be {\"apps\": [\"TEAMID.bundle.id\", …]}"))
            return report
        }
        for item in items {
            guard case .scalar(let appID, .doubleQuoted) = item.kind else {
                report.problems.append(Problem(locate(item), "an app identifier is a string \"TEAMID.bundle.id\""))
                continue
            }
            report.webCredentialApps.append(appID)
            if let problem = problem(ofAppID: appID, teamIDs: teamIDs, bundleIDs: bundleIDs) {
                report.problems.append(Problem(locate(item), problem))
            }
        }
        if items.isEmpty {
            report.problems.append(Problem(locate(apps), "'apps' is empty: no app may use the saved passwords"))
        }
        return report
    }

    /// What is wrong with one `TEAMID.bundle.id`, or nil.
    static func problem(ofAppID appID: String, teamIDs: [String], bundleIDs: [String: [String]]) -> String? {
        guard let dot = appID.firstIndex(of: "."), dot != appID.startIndex, appID.index(after: dot) != appID.endIndex
        else {
            return "'\(appID)' is not TEAMID.bundle.id (the Team ID, a dot, the bundle ID)"
        }
        let team = String(appID[..<dot])
        let bundle = String(appID[appID.index(after: dot)...])
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            return "'\(team)' in '\(appID)' is not a Team ID (10 uppercase letters and digits)"
                + (EditDistance.suggestion(for: team, among: teamIDs).map { " (did you mean '\($0)'?)" } ?? "")
        }
        guard teamIDs.contains(team) else {
            return "Team ID '\(team)' in '\(appID)' is not the scenario's"
                + (EditDistance.suggestion(for: team, among: teamIDs).map { " (did you mean '\($0)'?)" }
                    ?? " (teams: \(teamIDs.joined(separator: ", ")))")
        }
        let apps = bundleIDs[team] ?? []
        guard apps.contains(bundle) else {
            return "bundle ID '\(bundle)' in '\(appID)' is not an app of team \(team)"
                + (EditDistance.suggestion(for: bundle, among: apps).map { " (did you mean '\($0)'?)" } ?? "")
        }
        return nil
    }

    /// Checks what the HTTP exchange said, as Apple's CDN judges it: HTTPS, 200 (no redirect is
    /// followed), `application/json`, and the size.
    package static func checkExchange(
        url: String, status: Int, contentType: String?, location: String?, bodyBytes: Int
    ) -> [Problem] {
        var problems: [Problem] = []
        if !url.lowercased().hasPrefix("https://") {
            problems.append(Problem("HTTP request", "\(url) is not HTTPS: Apple fetches the file over HTTPS only"))
        }
        if (300..<400).contains(status) {
            problems.append(
                Problem(
                    "HTTP status \(status)",
                    "a redirect\(location.map { " to \($0)" } ?? ""); Apple does not follow redirects: serve the file at "
                        + url))
        } else if status != 200 {
            problems.append(Problem("HTTP status \(status)", "Apple needs 200"))
        }
        let media = contentType?.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() }
        if status == 200, media != "application/json" {
            problems.append(
                Problem(
                    "HTTP Content-Type",
                    "\(contentType.map { "'\($0)'" } ?? "missing"); serve the file as application/json"))
        }
        if bodyBytes > maximumBytes {
            problems.append(Problem("HTTP body", "\(bodyBytes) bytes; at most \(maximumBytes) (128 KB)"))
        }
        return problems
    }

    static func locate(_ node: Node) -> String { "\(node.file):\(node.position.line):\(node.position.column)" }

    /// `line:column` (1-based, columns in characters) of byte `offset`.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> String {
        let prefix = bytes.prefix(max(0, min(offset, bytes.count)))
        let line = prefix.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let column = String(decoding: prefix[lineStart...], as: UTF8.self).count + 1
        return "\(line):\(column)"
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

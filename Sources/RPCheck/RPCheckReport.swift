/// The results as the terminal table, as JUnit XML, and as an exit status.
package struct RPCheckReport: Sendable {
    package var results: [RPCheckResult]

    package init(results: [RPCheckResult]) { self.results = results }

    /// 0: every case refused; 1: a case accepted; 2: a control failed or a case could not run.
    package var exitStatus: Int32 {
        if results.contains(where: { $0.verdict == .controlFailed || Self.isError($0.verdict) }) { return 2 }
        return results.contains { $0.verdict == .accepted && $0.name != "control" } ? 1 : 0
    }

    static func isError(_ verdict: RPCheckVerdict) -> Bool {
        if case .error = verdict { true } else { false }
    }

    /// Whether a row is a defect or a failure in JUnit terms (an accepted control is a pass).
    static func fails(_ result: RPCheckResult) -> Bool {
        result.name != "control" && result.verdict == .accepted
    }

    /// One line per case: surface, case, verdict, backend answer; then risk and fix under each defect.
    package var table: String {
        let width = max(12, results.map(\.name.count).max() ?? 0)
        var lines = ["SURFACE        " + "CASE".padded(to: width) + "  VERDICT         ANSWER"]
        for result in results {
            let verdict =
                result.name == "control" && result.verdict == .accepted ? "accepted (ok)" : result.verdict.label
            lines.append(
                result.surface.padded(to: 15) + result.name.padded(to: width) + "  " + verdict.padded(to: 16)
                    + result.detail)
            if Self.fails(result) || result.verdict == .controlFailed && result.name == "control" {
                lines.append("    risk: \(result.risk)")
                lines.append("    fix:  \(result.fix)")
            }
            if case .skipped(let why) = result.verdict { lines.append("    \(why)") }
            if case .error(let why) = result.verdict { lines.append("    \(why)") }
        }
        let accepted = results.filter(Self.fails).count
        let judged = results.filter { $0.name != "control" }.count
        lines.append(
            exitStatus == 2 && results.contains { $0.verdict == .controlFailed }
                ? "control failed: the backend refused a correct token, so no case is judged"
                : "\(accepted) of \(judged) cases accepted")
        return lines.joined(separator: "\n") + "\n"
    }

    /// JUnit XML (the Ant/Jenkins `testsuites` schema): one `testsuite` per surface, one `testcase` per
    /// case; an accepted case is a `failure`, a failed control or a case that could not run an `error`,
    /// an unjudged case `skipped`.
    package var junitXML: String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuites name=\"rp-check\">\n"
        var surfaces: [String] = []
        for result in results where !surfaces.contains(result.surface) { surfaces.append(result.surface) }
        for (index, surface) in surfaces.enumerated() {
            let rows = results.filter { $0.surface == surface }
            let failures = rows.filter(Self.fails).count
            let errors = rows.filter { $0.verdict == .controlFailed || Self.isError($0.verdict) }.count
            let skipped = rows.filter { if case .skipped = $0.verdict { true } else { false } }.count
            xml += "  <testsuite name=\"rp-check.\(surface)\" id=\"\(index)\" package=\"rp-check\" "
            xml += "hostname=\"localhost\" timestamp=\"1970-01-01T00:00:00\" tests=\"\(rows.count)\" "
            xml += "failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"0\">\n"
            xml += "    <properties/>\n"
            for row in rows {
                xml += "    <testcase name=\"\(Self.escaped(row.name))\" classname=\"rp-check.\(surface)\" time=\"0\""
                switch row.verdict {
                case .accepted where row.name != "control":
                    xml += ">\n      <failure message=\"\(Self.escaped("accepted: " + row.risk))\" type=\"accepted\">"
                    xml +=
                        Self.escaped("fix: \(row.fix) (backend answered \(row.detail))")
                        + "</failure>\n    </testcase>\n"
                case .controlFailed:
                    xml += ">\n      <error message=\"control failed\" type=\"control\">"
                    xml +=
                        Self.escaped("the backend refused a correct token (\(row.detail))")
                        + "</error>\n    </testcase>\n"
                case .error(let why):
                    xml += ">\n      <error message=\"\(Self.escaped(why))\" type=\"error\"/>\n    </testcase>\n"
                case .skipped(let why):
                    xml += ">\n      <skipped message=\"\(Self.escaped(why))\"/>\n    </testcase>\n"
                default:
                    xml += "/>\n"
                }
            }
            xml += "    <system-out/>\n    <system-err/>\n  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text for an XML attribute or element.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 has no other control characters.
                if scalar.value >= 0x20 { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

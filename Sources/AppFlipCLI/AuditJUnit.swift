import AppFlipCore

/// `appflip audit --junit FILE`: JUnit XML as CI systems read it, one testsuite per target and one testcase
/// per check. A failed check is a `<failure>` whose message is the reason and whose text holds the rule, its
/// source and the evidence; a skipped check is `<skipped>`; a warning passes, with its text in `<system-out>`.
enum AuditJUnit {
    static func document(_ report: AuditReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let all = report.results
        xml +=
            "<testsuites name=\"appflip audit\" tests=\"\(all.count)\" failures=\"\(count(all, .fail))\" errors=\"0\" skipped=\"\(count(all, .skipped))\">\n"
        for target in AuditTarget.allCases {
            let results = all.filter { $0.check.target == target }
            xml += "  <testsuite name=\"\(escape(target.rawValue))\" tests=\"\(results.count)\" failures=\"\(count(results, .fail))\" "
            xml += "errors=\"0\" skipped=\"\(count(results, .skipped))\">\n"
            for result in results {
                let check = result.check
                xml += "    <testcase classname=\"appflip.audit.\(escape(target.rawValue))\" name=\"\(escape(check.rawValue))\">\n"
                let details = (["rule: \(check.rule)", "source: \(check.source)"] + result.evidence).joined(separator: "\n")
                switch result.outcome {
                case .pass:
                    break
                case .fail:
                    xml += "      <failure type=\"\(escape(check.rawValue))\" message=\"\(escape(result.reason))\">\(escape(details))</failure>\n"
                case .warning:
                    xml += "      <system-out>\(escape("warning: \(result.reason)\n\(details)"))</system-out>\n"
                case .skipped:
                    xml += "      <skipped message=\"\(escape(result.reason))\"/>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func count(_ results: [AuditResult], _ outcome: AuditOutcome) -> Int {
        results.filter { $0.outcome == outcome }.count
    }

    /// Text for an XML 1.0 attribute or element: the five markup characters escaped, and the characters
    /// XML 1.0 cannot hold at all (controls other than tab and newline) replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n": escaped.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

import AppFlipAudit
import AppFlipCore

/// `appflip audit --junit FILE`: JUnit XML as CI systems read it, one testsuite per target and one testcase
/// per check. A failed check is a `<failure>` whose message is the reason and whose text holds the rule, its
/// source and the evidence; a check that could not run is an `<error>`; a skipped check is
/// `<skipped>`; a warning passes, with its text in `<system-out>`.
enum AuditJUnit {
    static func document(_ report: AuditReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let all = report.results
        xml +=
            "<testsuites name=\"appflip audit\" tests=\"\(all.count)\" failures=\"\(count(all, .fail))\" errors=\"\(count(all, .couldNotRun))\" skipped=\"\(count(all, .skipped))\">\n"
        for target in AuditTarget.allCases {
            let results = all.filter { $0.check.target == target }
            xml += "  <testsuite name=\"\(XMLText.escaped(target.rawValue))\" tests=\"\(results.count)\" failures=\"\(count(results, .fail))\" "
            xml += "errors=\"\(count(results, .couldNotRun))\" skipped=\"\(count(results, .skipped))\">\n"
            for result in results {
                let check = result.check
                xml += "    <testcase classname=\"appflip.audit.\(XMLText.escaped(target.rawValue))\" name=\"\(XMLText.escaped(check.id))\">\n"
                let details = (["rule: \(check.rule)", "source: \(check.source)"] + result.evidence).joined(separator: "\n")
                switch result.outcome {
                case .pass:
                    break
                case .fail:
                    xml +=
                        "      <failure type=\"\(XMLText.escaped(check.id))\" message=\"\(XMLText.escaped(result.reason))\">\(XMLText.escaped(details))</failure>\n"
                case .couldNotRun:
                    xml +=
                        "      <error type=\"\(XMLText.escaped(check.id))\" message=\"\(XMLText.escaped(result.reason))\">\(XMLText.escaped(details))</error>\n"
                case .warning:
                    xml += "      <system-out>\(XMLText.escaped("warning: \(result.reason)\n\(details)"))</system-out>\n"
                case .skipped:
                    xml += "      <skipped message=\"\(XMLText.escaped(result.reason))\"/>\n"
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
}

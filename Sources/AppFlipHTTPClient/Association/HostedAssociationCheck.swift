import AppFlipCore

/// One check of a hosted file, as `appflip aasa check` prints it and JUnit records it.
public struct HostedAssociationCheck: Sendable, Hashable {
    /// Whether the check held, broke, or could not be made because an earlier one broke.
    public enum Status: String, Sendable, Hashable {
        /// The rule held.
        case passed
        /// The rule broke; `evidence` says what was seen.
        case failed
        /// Not checked: an earlier hosting rule broke, so there was nothing to check.
        case skipped
    }

    /// The rule's stable id: a `HostingRule` (`hosting.https`, `file.valid`), `file.app-id`, `url.decision` or
    /// `drift`.
    public let rule: String
    /// The rule's id, with the URL for `url.decision`: unique within a report.
    public let name: String
    /// What the rule asks, in one line.
    public let title: String
    /// How it went.
    public let status: Status
    /// What was seen.
    public let evidence: String
    /// Where the rule is written down.
    public let source: String

    /// Creates a check result.
    public init(rule: String, name: String? = nil, title: String, status: Status, evidence: String, source: String) {
        self.rule = rule
        self.name = name ?? rule
        self.title = title
        self.status = status
        self.evidence = evidence
        self.source = source
    }
}

extension HostedAssociationCheck {
    /// The check in a report's JSON (`--json`), as `aasa check` and `assetlinks check` write it.
    var json: JSONValue {
        .object([
            "rule": .string(rule),
            "name": .string(name),
            "title": .string(title),
            "status": .string(status.rawValue),
            "evidence": .string(evidence),
            "source": .string(source),
        ])
    }

    /// JUnit XML, as `appflip audit` writes it: one testsuite named `suite`, one testcase per check, the rule
    /// and evidence in each failure's message and the rule's source in its text; a check that could not be
    /// made is skipped. `aasa check` and `assetlinks check` share it.
    static func junitXML(suite: String, checks: [HostedAssociationCheck]) -> String {
        let failed = checks.filter { $0.status == .failed }.count
        let skipped = checks.filter { $0.status == .skipped }.count
        let suite = XMLText.escaped(suite)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="appflip" tests="\#(checks.count)" failures="\#(failed)" errors="0" skipped="\#(skipped)">"#,
            #"  <testsuite name="\#(suite)" tests="\#(checks.count)" failures="\#(failed)" errors="0" skipped="\#(skipped)">"#,
        ]
        for check in checks {
            let opening = #"    <testcase classname="\#(suite)" name="\#(XMLText.escaped(check.name))""#
            switch check.status {
            case .passed:
                lines.append(opening + "/>")
            case .failed:
                lines.append(opening + ">")
                lines.append(
                    #"      <failure message="\#(XMLText.escaped("\(check.rule): \(check.evidence)"))" type="\#(XMLText.escaped(check.rule))">\#(XMLText.escaped(check.source))</failure>"#
                )
                lines.append("    </testcase>")
            case .skipped:
                lines.append(opening + ">")
                lines.append(#"      <skipped message="\#(XMLText.escaped(check.evidence))"/>"#)
                lines.append("    </testcase>")
            }
        }
        lines += ["  </testsuite>", "</testsuites>", ""]
        return lines.joined(separator: "\n")
    }
}

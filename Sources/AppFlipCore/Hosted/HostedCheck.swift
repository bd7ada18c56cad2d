/// One check of a hosted file, as `aasa check` and `assetlinks check` print it, JSON and JUnit record it, and
/// the audit maps it to its result by id.
public struct HostedCheck: Sendable, Hashable {
    /// Whether the check held, broke, or could not be made because an earlier one broke.
    public enum Status: String, Sendable, Hashable {
        /// The rule held.
        case passed
        /// The rule broke; `evidence` says what was seen.
        case failed
        /// Not checked: an earlier rule broke, so there was nothing to judge.
        case skipped
    }

    /// The rule's id (`aasa.hosted-https`, `assetlinks.delegates`).
    public let rule: String
    /// The rule's id, with the URL for a URL's decision: unique within a report.
    public let name: String
    /// What the rule asks, in a few words.
    public let title: String
    /// How it went.
    public let status: Status
    /// What was seen.
    public let evidence: String
    /// Where the rule is written down.
    public let source: String

    /// `rule`'s check, named `name` (the rule's id by default).
    public init(_ rule: HostedRule, name: String? = nil, _ status: Status, _ evidence: String) {
        self.rule = rule.id
        self.name = name ?? rule.id
        self.title = rule.title
        self.status = status
        self.evidence = evidence
        self.source = rule.source
    }

    /// `rule`'s check, passed when `passed`.
    public init(_ rule: HostedRule, name: String? = nil, passed: Bool, _ evidence: String) {
        self.init(rule, name: name, passed ? .passed : .failed, evidence)
    }

    /// `rule` left unjudged because `cause` broke.
    public static func skipped(_ rule: HostedRule, because cause: String) -> HostedCheck {
        HostedCheck(rule, .skipped, "not checked: \(cause) failed")
    }

    /// The check in a report's JSON: `rule`, `name`, `title`, `status`, `evidence`, `source`.
    public var json: JSONValue {
        .object([
            "rule": .string(rule),
            "name": .string(name),
            "title": .string(title),
            "status": .string(status.rawValue),
            "evidence": .string(evidence),
            "source": .string(source),
        ])
    }

    /// The check as a report prints it: a mark, the check's name and the evidence.
    public var textLine: String {
        let mark =
            switch status {
            case .passed: "✔"
            case .failed: "✘"
            case .skipped: "–"
            }
        return "\(mark) \(name): \(evidence)"
    }

    /// JUnit XML, as `appflip audit` writes it: one testsuite named `suite`, one testcase per check, the rule
    /// and evidence in each failure's message and the rule's source in its text; a check that could not be
    /// made is skipped.
    public static func junitXML(suite: String, checks: [HostedCheck]) -> String {
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

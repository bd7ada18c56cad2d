import AppFlipCore

/// `appflip audit --summary-markdown FILE`: the report as GitHub-flavoured Markdown for a CI job's page
/// (`$GITHUB_STEP_SUMMARY`) or a merge-request note: the counts as a table, then each failure, check that
/// could not run and warning with its rule, source, reason, the exchanges that showed it and its evidence,
/// then the passed and skipped checks collapsed in `<details>`. It stays under ``limit`` (GitHub refuses a
/// larger step summary; GitLab's notes stop at a million characters): evidence is cut first, then the
/// collapsed tables, and a note says so and where the whole of it is.
public enum AuditSummaryMarkdown {
    /// GitHub's bound on one step's summary, 1 MiB.
    public static let limit = 1024 * 1024

    /// The summary of `report`, at most `budget` bytes of UTF-8 (GitHub's 1 MiB, less room for a job's own
    /// lines by default).
    public static func document(_ report: AuditReport, budget: Int = limit - 32 * 1024) -> String {
        for cut in Cut.levels where cut.estimate(report) <= budget {
            let text = render(report, cut)
            if text.utf8.count <= budget { return text }
        }
        // Not reached with the catalogue's size; kept so that the bound holds whatever a reason holds.
        let text = render(report, Cut.levels.last!)
        var kept = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard kept.utf8.count + line.utf8.count + 200 < budget else { break }
            kept += line + "\n"
        }
        return kept + "\n\n" + cutNote + "\n"
    }

    /// How much of each part is kept: the whole of it first, then less and less.
    struct Cut {
        var evidenceLines: Int
        var lineLength: Int
        var reasonLength: Int
        var collapsedTables: Bool

        var isWhole: Bool { evidenceLines == .max }

        /// A lower bound of the bytes `render` writes with this cut: the evidence and reasons it keeps, so that a
        /// cut that cannot fit is not rendered at all.
        func estimate(_ report: AuditReport) -> Int {
            report.results.reduce(0) { total, result in
                let kept = result.evidence.prefix(evidenceLines).reduce(0) { $0 + min($1.utf8.count, lineLength) }
                let shown = result.outcome == .fail || result.outcome == .warning || result.outcome == .couldNotRun
                return total + (shown ? kept : 0) + (shown || collapsedTables ? min(result.reason.utf8.count, reasonLength) : 0)
            }
        }

        static let levels: [Cut] = [
            Cut(evidenceLines: .max, lineLength: .max, reasonLength: .max, collapsedTables: true),
            Cut(evidenceLines: 50, lineLength: 2_000, reasonLength: 4_000, collapsedTables: true),
            Cut(evidenceLines: 20, lineLength: 500, reasonLength: 2_000, collapsedTables: true),
            Cut(evidenceLines: 10, lineLength: 200, reasonLength: 1_000, collapsedTables: false),
            Cut(evidenceLines: 3, lineLength: 200, reasonLength: 500, collapsedTables: false),
            Cut(evidenceLines: 0, lineLength: 0, reasonLength: 300, collapsedTables: false),
        ]
    }

    static let cutNote =
        "> **Cut to fit** GitHub's 1 MiB step summary: the whole evidence of every check is in the JSON report (`--json`, `--json-file`) and the HAR (`--har`)."

    static func render(_ report: AuditReport, _ cut: Cut) -> String {
        let count = { (outcome: AuditOutcome) in report.results.filter { $0.outcome == outcome }.count }
        var lines: [String] = []
        let verdict =
            switch report.exitStatus {
            case 0: "no check failed"
            case 2: "a rule failed"
            default: "the audit could not run fully"
            }
        lines.append("## appflip audit: \(verdict)")
        lines.append("")
        lines.append("| ✘ failed | ! could not run | ⚠ warnings | ✔ passed | – skipped |")
        lines.append("|---:|---:|---:|---:|---:|")
        lines.append("| \(count(.fail)) | \(count(.couldNotRun)) | \(count(.warning)) | \(count(.pass)) | \(count(.skipped)) |")
        lines.append("")
        lines.append("Exit status \(report.exitStatus): \(verdict). Every exchange is numbered `#N` as in the HAR's `_appflipExchange`.")
        if !cut.isWhole {
            lines.append("")
            lines.append(cutNote)
        }
        if !report.unreachable.isEmpty {
            lines.append("")
            lines.append("**Unreachable:**")
            lines.append("")
            for problem in report.unreachable { lines.append("- " + inline(problem, cut.reasonLength)) }
        }
        for outcome in [AuditOutcome.fail, .couldNotRun, .warning] {
            for result in report.results where result.outcome == outcome {
                lines.append("")
                lines += section(result, cut)
            }
        }
        if cut.collapsedTables {
            for outcome in [AuditOutcome.pass, .skipped] {
                let results = report.results.filter { $0.outcome == outcome }
                guard !results.isEmpty else { continue }
                lines.append("")
                lines.append("<details><summary>\(mark(outcome)) \(results.count) \(outcome == .pass ? "passed" : "skipped")</summary>")
                lines.append("")
                lines.append("| check | target | reason |")
                lines.append("|---|---|---|")
                for result in results {
                    lines.append("| `\(result.check.id)` | \(result.check.target.rawValue) | \(inline(result.reason, cut.reasonLength)) |")
                }
                lines.append("")
                lines.append("</details>")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ result: AuditResult, _ cut: Cut) -> [String] {
        let check = result.check
        var lines = [
            "### \(mark(result.outcome)) `\(check.id)`: \(inline(check.title, .max))",
            "",
            "- **\(result.outcome == .couldNotRun ? "Could not run" : result.outcome == .fail ? "Failed" : "Warning"):** "
                + inline(result.reason, cut.reasonLength),
            "- **Rule** (\(check.level.rawValue)): " + inline(check.rule, .max),
            "- **Source:** " + inline(check.source, .max),
        ]
        if !result.exchanges.isEmpty {
            lines.append("- **Exchanges:** " + result.exchanges.map { "\\#\($0)" }.joined(separator: ", "))
        }
        let evidence = result.evidence.prefix(cut.evidenceLines).map { line in
            line.count > cut.lineLength ? String(line.prefix(cut.lineLength)) + "… (cut)" : line
        }
        if !evidence.isEmpty {
            let fence = String(repeating: "`", count: max(3, evidence.map(longestBacktickRun).max()! + 1))
            lines += ["", fence + "text"] + evidence + [fence]
        }
        if result.evidence.count > evidence.count {
            lines.append("")
            lines.append("_\(result.evidence.count - evidence.count) more evidence line(s) cut; all are in the JSON report._")
        }
        return lines
    }

    /// Text inside a paragraph, list item, heading or table cell: on one line, every ASCII punctuation mark
    /// escaped (CommonMark lets any be; GFM's tables read `\|` as a `|`), so that nothing a partner's server
    /// sent is read as Markdown; at most `length` characters.
    static func inline(_ text: String, _ length: Int) -> String {
        let cut = text.count > length ? String(text.prefix(length)) + "… (cut)" : text
        var escaped = ""
        for character in cut {
            switch character {
            case "\n", "\r", "\t":
                escaped.append(" ")
            case _ where character.isASCII && character.isPunctuationOrSymbol:
                escaped.append("\\")
                escaped.append(character)
            default:
                escaped.append(character)
            }
        }
        return escaped
    }

    private static func longestBacktickRun(_ line: String) -> Int {
        var longest = 0
        var run = 0
        for character in line {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    private static func mark(_ outcome: AuditOutcome) -> String {
        switch outcome {
        case .pass: "✔"
        case .fail: "✘"
        case .warning: "⚠"
        case .skipped: "–"
        case .couldNotRun: "!"
        }
    }
}

extension Character {
    /// An ASCII punctuation mark or symbol, each of which CommonMark lets a backslash escape.
    fileprivate var isPunctuationOrSymbol: Bool { isPunctuation || isSymbol }
}

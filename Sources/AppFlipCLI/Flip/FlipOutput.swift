import AppFlipGoogle

/// The text output of `appflip flip`.
struct FlipOutput {
    var style: OutputStyle
    var trace: Bool

    func print(_ report: FlipReport) {
        if trace {
            Swift.print(style.bold("App Flip") + style.dim(" \(report.link)"))
            for step in report.steps {
                let mark: String
                switch step.status {
                case .ok: mark = style.green("✔")
                case .failed: mark = style.red("✘")
                case .skipped: mark = style.dim("·")
                }
                let time = step.milliseconds.map { String(format3($0)) + " ms" } ?? "—"
                let line = "\(mark) \(step.step) \(step.name.rightPadded(30))" + style.dim(time.leftPadded(11))
                Swift.print(line + (step.detail.map { "  " + ($0) } ?? ""))
            }
        }
        for violation in report.violations { Swift.print(style.red("violation: ") + violation) }
        for deviation in report.deviations { Swift.print(style.yellow("deviation: ") + deviation) }
        if let failure = report.failure {
            Swift.print(style.red("✘ ") + failure)
        } else if report.tokens != nil {
            Swift.print(style.green("✔ linked") + " \(report.app ?? "?"): code exchanged, tokens: \(report.tokens!.summary)")
            if let refreshed = report.refreshed { Swift.print(style.dim("  refreshed: \(refreshed.summary)")) }
            if report.unlinked == true {
                Swift.print(style.green("✔ unlinked") + ": the tokens were revoked and are dead")
            }
        } else {
            let how = report.android == true ? "with RESULT_OK" : "with the state echoed"
            Swift.print(style.green("✔ code received") + " from \(report.app ?? "?") \(how) (not exchanged)")
        }
    }

    private func format3(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

import AppFlipProtocol

/// Human-readable lines for protocol results.
extension OutputStyle {
    func describe(_ error: ErrorBody) -> String {
        var line = red("✘ \(error.code.rawValue)") + ": " + error.message
        if let field = error.field { line += dim(" (field \(field))") }
        return line
    }

    func describe(opened: OpenedURL) -> String {
        let target: String
        switch opened.status {
        case .delivered: target = green("delivered") + " to \(opened.app ?? "?")" + dim(" (\(opened.rule ?? "-"))")
        case .declined: target = yellow("declined") + " by \(opened.app ?? "?")" + (opened.reason.map { ": \($0)" } ?? "")
        case .browser: target = yellow("browser") + dim(" (no app claims it; universalLinksOnly was false)")
        case .failed: target = red("failed") + (opened.error.map { ": \($0.code.rawValue): \($0.message)" } ?? "")
        }
        let flag = opened.universalLinksOnly ? dim(" [universalLinksOnly]") : ""
        return "  opened \(opened.url)\(flag) → \(target)"
    }
}

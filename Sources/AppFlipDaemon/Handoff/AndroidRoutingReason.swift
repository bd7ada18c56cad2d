import AppFlipCore

/// Why a link routed as Android does opens in the browser, in the words `open` and `explain` report.
enum AndroidBrowserReason {
    /// The pointer to an app's intent filter in its `android` object.
    static func filterPointer(_ index: Int) -> String {
        "/android/intentFilters/\(index)"
    }

    static func describe(_ reason: AppLinkResolver.BrowserReason) -> String {
        switch reason {
        case .notWebLink:
            return "not an http or https link"
        case .noFilter:
            return "no app has a VIEW, BROWSABLE, DEFAULT intent filter for the URL"
        case .unverified(let apps):
            return apps.map { app in
                "\(app.match.packageName) matches by \(filterPointer(app.match.filterIndex)) but \(app.match.host) is not verified "
                    + "(\(app.state)): \(app.reason)"
            }.joined(separator: "; ")
        case .excludedByDynamicRule(let match, let rule):
            return "\(match.packageName) is verified for \(match.host), but the dynamic rule \(rule.pointer) of its statement excludes the URL"
        case .noDynamicRuleMatched(let match):
            return "\(match.packageName) is verified for \(match.host), but no dynamic rule of its statement matches the URL"
        }
    }
}

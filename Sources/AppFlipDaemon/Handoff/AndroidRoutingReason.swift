import AppFlipCore

/// Why a link routed as Android goes where it goes, in the words `open` and `explain` report: the browser's
/// reasons, the disambiguation dialog's, and which of several verified apps opens it.
enum AndroidRoutingReason {
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

    /// Android 6–11's disambiguation dialog: the apps it offers beside the browsers, and why none is `always`.
    static func describe(chooser offered: [AppLinkResolver.Unverified]) -> String {
        let apps = offered.map { app in "\(app.match.packageName) (matches by \(filterPointer(app.match.filterIndex)): \(app.reason))" }
        return "Android 11 and earlier show the disambiguation dialog, offering the browsers and " + apps.joined(separator: ", ")
            + ", since no app matching the URL is verified for all its hosts"
    }

    /// Which of several verified apps opens the link, and why the others do not.
    static func describe(winner: String, over others: [String], generation: AndroidGeneration) -> String {
        let rule =
            generation == .android11AndEarlier
            ? "Android 11 and earlier open the app verified last (its app-link generation)"
            : "Android 12 and later open the app first installed last (filterToLastFirstInstalled)"
        return "\(others.joined(separator: ", ")) \(others.count == 1 ? "is" : "are") verified too; \(rule): \(winner)"
    }
}

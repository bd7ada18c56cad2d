import AppFlipCore

/// The app a link was routed to, and what brought it there: the part of a routing decision a handoff carries.
struct RoutedApp: Sendable {
    let appID: String
    /// The iOS `applinks:` entry, or the Android filter host, through which the app claims the URL's host.
    let domain: String
    /// The deciding rule, as an RFC 6901 pointer: an AASA component, or `/android/intentFilters/N`.
    let rule: String

    /// The route table's candidate (iOS).
    init(_ candidate: Candidate) {
        appID = candidate.appID
        domain = candidate.domain.description
        rule = candidate.decision.pointer ?? ""
    }

    /// The resolver's match (Android).
    init(_ match: AppLinkResolver.Match, appID: String) {
        self.appID = appID
        domain = match.host
        rule = AndroidRoutingReason.filterPointer(match.filterIndex)
    }
}

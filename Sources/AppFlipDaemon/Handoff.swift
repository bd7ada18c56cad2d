public import AppFlipCore
public import AppFlipProtocol
public import Logging
public import NIOCore

/// One activity on its way to one app, and the capability to open URLs as that app.
///
/// A class rather than a struct: it holds a dozen references (strings, the logger, the hop), and passing
/// it from the hop to a live app's pending table and back copied each of them, an atomic count apiece.
public final class Handoff: Sendable {
    /// The `NSUserActivity` being continued; its `webpageURL` is the universal link.
    public let activity: Activity
    /// The activity's `webpageURL`, as the daemon parsed it to route it.
    public let url: RawURL
    /// The app the URL was routed to.
    public let appID: String
    /// The AASA component that matched, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`.
    public let rule: String
    /// The event loop the handoff runs on; the daemon hops the handler's future back to it, so completing it here saves a hop.
    public let eventLoop: any EventLoop
    /// The daemon's logger, for the handler's own messages; log URLs only through `Redaction.redact(url:)`.
    public let logger: Logger
    let hop: HandoffHop

    init(activity: Activity, url: RawURL, appID: String, rule: String, eventLoop: any EventLoop, logger: Logger, hop: HandoffHop) {
        self.activity = activity
        self.url = url
        self.appID = appID
        self.rule = rule
        self.eventLoop = eventLoop
        self.logger = logger
        self.hop = hop
    }

    /// Opens `url` as this app would with `UIApplication.open(_:options:)`: it is routed like any universal
    /// link and delivered to the app that claims it. The future never fails; the `OpenedURL` says what
    /// happened, and the originator's reply lists it.
    @discardableResult
    public func open(_ url: String, options: OpenOptions) -> EventLoopFuture<OpenedURL> {
        hop.open(OpenURLRequest(url: url, options: options), as: appID)
    }
}

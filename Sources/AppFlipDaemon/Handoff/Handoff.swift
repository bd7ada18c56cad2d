public import AppFlipCore
public import AppFlipProtocol
public import Logging
public import NIOCore

/// One activity on its way to one app: the capability to open URLs as that app, and to answer.
///
/// A class rather than a struct: it holds a dozen references (strings, the logger, the hop), and passing
/// it from the hop to a live app's pending table and back copied each of them, an atomic count apiece.
public final class Handoff: Sendable {
    /// The `NSUserActivity` being continued; its `webpageURL` is the universal link.
    public let activity: Activity
    /// The activity's `webpageURL`, as the daemon parsed it to route it.
    public let url: RawURL
    /// The event loop the handoff runs on; an answer given on it concludes at once, any other is hopped to it.
    public let eventLoop: any EventLoop
    /// The daemon's logger, for the handler's own messages; log URLs only through `Redaction.redact(url:)`.
    public let logger: Logger
    /// The app the URL was routed to.
    public let appID: String
    /// The rule that brought the URL to the app: on iOS the AASA component that matched, as an RFC 6901
    /// pointer into its AASA document (`/applinks/details/0/components/1`); on Android the intent filter,
    /// as a pointer into the app's `android` object (`/android/intentFilters/0`).
    public let rule: String
    /// What the app claims the host through: its `applinks:` entry on iOS, the filter's host on Android.
    let domain: String
    let hop: HandoffHop

    init(activity: Activity, url: RawURL, route: RoutedApp, eventLoop: any EventLoop, logger: Logger, hop: HandoffHop) {
        self.activity = activity
        self.url = url
        self.appID = route.appID
        self.rule = route.rule
        self.domain = route.domain
        self.eventLoop = eventLoop
        self.logger = logger
        self.hop = hop
    }

    /// Opens `url` as this app would with `UIApplication.open(_:options:)`: it is routed like any universal
    /// link and delivered to the app that claims it. The future never fails; the `OpenedURL` says what
    /// happened, and the originator's reply lists it. A URL opened after the handoff's answer is refused.
    @discardableResult
    public func open(_ url: String, options: OpenOptions) -> EventLoopFuture<OpenedURL> {
        hop.open(OpenURLRequest(url: url, options: options), as: appID)
    }

    /// Answers the handoff, from any thread: `application(_:continue:restorationHandler:)`'s return value, or
    /// an error (an `ErrorBody` with `handler_failed` or `timeout`; any other error is reported as
    /// `handler_failed`). The first answer counts; a later one changes nothing.
    /// - Returns: whether this answer was the first, so that a handler racing its own time limit knows
    ///   which side won.
    @discardableResult
    public func answer(_ answer: Result<ActivityAnswer, any Error>) -> Bool {
        hop.handlerAnswered(answer, by: self)
    }
}

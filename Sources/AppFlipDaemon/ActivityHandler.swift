public import AppFlipCore
public import AppFlipProtocol
public import Logging
public import NIOCore

/// What an app does with a universal link: the daemon's extension point for handlers.
///
/// The daemon calls `handle(_:)` once per handoff on an event loop. The handler answers like
/// `application(_:continue:restorationHandler:)`: succeed with `true` to continue, `false` to decline, or
/// fail with an ``ErrorBody`` whose code is `handler_failed` or `timeout`; any other error is reported as
/// `handler_failed`. A handler enforces its own time limit. While handling, it may open URLs through
/// ``Handoff/open(_:options:)``; the originator's reply waits for their delivery and lists each one.
///
/// The future keeps the hot path on the event loop. A handler written with `async` code can bridge with
/// `handoff.eventLoop.makeFutureWithTask { … }`.
public protocol ActivityHandler: Sendable {
    /// How `apps` names this handler: `exec`, `live`, `builtin:accept`…
    var kind: String { get }

    func handle(_ handoff: Handoff) -> EventLoopFuture<Bool>
}

/// One activity on its way to one app, and the capability to open URLs as that app.
public struct Handoff: Sendable {
    public let activity: Activity
    /// The activity's `webpageURL`, as the daemon parsed it to route it.
    public let url: RawURL
    /// The app the URL was routed to.
    public let appID: String
    /// The AASA component that matched, as an RFC 6901 pointer into its AASA document, `/applinks/details/0/components/1`.
    public let rule: String
    public let eventLoop: any EventLoop
    public let logger: Logger
    let hop: HandoffHop

    /// Opens `url` as this app would with `UIApplication.open(_:options:)`: it is routed like any universal
    /// link and delivered to the app that claims it. The future never fails; the ``OpenedURL`` says what
    /// happened, and the originator's reply lists it.
    @discardableResult
    public func open(_ url: String, options: OpenOptions) -> EventLoopFuture<OpenedURL> {
        hop.open(OpenURLRequest(url: url, options: options), as: appID)
    }
}

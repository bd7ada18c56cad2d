import AppFlipProtocol
import NIOCore
import Synchronization

/// Collects the URLs one handler opens, in order, so that the originator's reply can list their delivery.
final class URLOpener: Sendable {
    private struct State {
        var opened: [EventLoopFuture<OpenedURL>] = []
        var finished = false
        /// The handler tried to open more than `maxOpened` URLs; the handoff fails.
        var overflowed = false
    }

    private let state = Mutex(State())
    private let router: HandoffRouter
    /// The handoff whose handler opens the URLs, and its app: each URL goes one hop further, sent by the app.
    private let handoffID: UInt64
    private let hop: Int
    private let appID: String
    private let eventLoop: any EventLoop
    private let maxOpened: Int

    init(router: HandoffRouter, handoffID: UInt64, hop: Int, appID: String, eventLoop: any EventLoop, maxOpened: Int) {
        self.router = router
        self.handoffID = handoffID
        self.hop = hop
        self.appID = appID
        self.eventLoop = eventLoop
        self.maxOpened = maxOpened
    }

    func open(_ request: OpenURLRequest) -> EventLoopFuture<OpenedURL> {
        enum Admission { case admitted(EventLoopPromise<OpenedURL>), refused(String) }
        let admission: Admission = state.withLock { state in
            if state.finished { return .refused("the handler opened it after it had answered") }
            if state.opened.count >= maxOpened {
                state.overflowed = true
                return .refused("the handler opened more than \(maxOpened) URLs (maxOpenedURLs)")
            }
            let promise = eventLoop.makePromise(of: OpenedURL.self)
            state.opened.append(promise.futureResult)
            return .admitted(promise)
        }
        switch admission {
        case .admitted(let promise):
            router.deliver(request, handoffID: handoffID, hop: hop + 1, from: .init(peer: nil, client: appID), on: eventLoop).cascade(to: promise)
            return promise.futureResult
        case .refused(let reason):
            return eventLoop.makeSucceededFuture(OpenedURL(
                url: Redaction.redact(url: request.url), universalLinksOnly: request.options.universalLinksOnly,
                status: .failed, error: ErrorBody(.handlerFailed, reason)))
        }
    }

    /// Stops taking URLs, and returns the deliveries of those opened so far (none, the common case) and
    /// whether the handler tried to open too many.
    func finish() -> (opened: [EventLoopFuture<OpenedURL>], overflowed: Bool) {
        state.withLock { state in
            state.finished = true
            return (state.opened, state.overflowed)
        }
    }
}

import AppFlipProtocol
import NIOConcurrencyHelpers
import NIOCore

/// Collects the URLs one handler opens, in order, so that the originator's reply can list their delivery.
final class URLOpener: Sendable {
    private struct State {
        var opened: [EventLoopFuture<OpenedURL>] = []
        var finished = false
        /// The handler tried to open more than `maxOpened` URLs; the handoff fails.
        var overflowed = false
    }

    private let state = NIOLockedValueBox(State())
    private let eventLoop: any EventLoop
    private let maxOpened: Int
    private let deliver: @Sendable (OpenURLRequest) -> EventLoopFuture<OpenedURL>

    init(eventLoop: any EventLoop, maxOpened: Int, deliver: @escaping @Sendable (OpenURLRequest) -> EventLoopFuture<OpenedURL>) {
        self.eventLoop = eventLoop
        self.maxOpened = maxOpened
        self.deliver = deliver
    }

    func open(_ request: OpenURLRequest) -> EventLoopFuture<OpenedURL> {
        enum Admission { case admitted(EventLoopPromise<OpenedURL>), refused(String) }
        let admission: Admission = state.withLockedValue { state in
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
            deliver(request).cascade(to: promise)
            return promise.futureResult
        case .refused(let reason):
            return eventLoop.makeSucceededFuture(OpenedURL(
                url: Redaction.redact(url: request.url), universalLinksOnly: request.options.universalLinksOnly,
                status: .failed, error: ErrorBody(.handlerFailed, reason)))
        }
    }

    /// Stops taking URLs and calls `body` on the event loop once every one opened so far is delivered (at
    /// once when there are none, the common case), with whether the handler tried to open too many.
    func finish(_ body: @escaping @Sendable (_ opened: [OpenedURL], _ overflowed: Bool) -> Void) {
        let (opened, overflowed) = state.withLockedValue { state in
            state.finished = true
            return (state.opened, state.overflowed)
        }
        if opened.isEmpty {
            body([], overflowed)
        } else {
            EventLoopFuture.whenAllSucceed(opened, on: eventLoop).whenSuccess { body($0, overflowed) }
        }
    }
}

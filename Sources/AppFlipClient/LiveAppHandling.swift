public import AppFlipProtocol
public import NIOCore

/// A live app's activity handler. It runs on the connection's event loop; return a future that is
/// already succeeded for the fastest path, or use ``AsyncLiveApp`` for `async` code.
public protocol LiveAppHandling: Sendable {
    func handle(_ activity: ActivityPush, eventLoop: any EventLoop) -> EventLoopFuture<LiveAnswer>
}

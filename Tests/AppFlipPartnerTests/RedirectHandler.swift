import AppFlipConfiguration
import AppFlipCore
import AppFlipDaemon
import AppFlipOAuth
import AppFlipProtocol
import AppFlipTesting
import Logging
import NIOCore
import Testing

/// Continues every activity by opening `target`; declines when nobody takes it.
struct RedirectHandler: ActivityHandler {
    let kind = "redirect"
    let target: String
    let universalLinksOnly: Bool

    func handle(_ handoff: Handoff) -> EventLoopFuture<ActivityAnswer> {
        handoff.logger.debug("redirecting", metadata: ["app": "\(handoff.appID)", "rule": "\(handoff.rule)"])
        return handoff.open(target, options: OpenOptions(universalLinksOnly: universalLinksOnly))
            .map { opened in opened.status == .delivered ? .continue : .decline("nobody took \(opened.url)") }
    }
}

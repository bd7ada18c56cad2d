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

    func handle(_ handoff: Handoff) {
        handoff.logger.debug("redirecting", metadata: ["app": "\(handoff.appID)", "rule": "\(handoff.rule)"])
        handoff.open(target, options: OpenOptions(universalLinksOnly: universalLinksOnly))
            .map { opened in opened.status == .delivered ? ActivityAnswer.continue : .decline("nobody took \(opened.url)") }
            .whenComplete { handoff.answer($0) }
    }
}

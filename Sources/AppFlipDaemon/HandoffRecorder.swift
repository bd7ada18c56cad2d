import AppFlipProtocol
import Glibc
import Logging
import NIOCore

/// The record of every hop: one info line in the log (all hops of one `open` under one handoff id) and one
/// `watch` event. The one place either is written; URLs are redacted here, and the log handler scrubs again.
final class HandoffRecorder: Sendable {
    private let events: EventHub
    private let logger: Logger
    private let handoffIDs = HandoffIDs()

    init(events: EventHub, logger: Logger) {
        self.events = events
        self.logger = logger
    }

    /// A new top-level handoff's number.
    func nextHandoffID() -> UInt64 {
        handoffIDs.next()
    }

    /// Records how `hop` ended. Costs nothing when neither the log level nor a `watch` subscriber wants it.
    func record(_ result: Result<OpenResult, ErrorBody>, of hop: HandoffHop) {
        let logs = logger.logLevel <= .info
        let watched = events.hasSubscribers
        guard logs || watched else { return }
        let outcome: String
        let app: String?
        let rule: String?
        switch result {
        case .success(let handled):
            outcome = hop.number == 0 ? handled.status.rawValue : (handled.status == .handled ? "delivered" : handled.status.rawValue)
            app = handled.app
            rule = handled.rule
        case .failure(let error):
            outcome = error.code.rawValue
            app = error.app
            rule = error.rule
        }
        let latency = (NIODeadline.now() - hop.started).nanoseconds / 1000
        let sender = hop.sender
        if logs {
            // The numbers, the id and the redacted URL are spelled out where the line is printed, on the log
            // writer's thread (`Systemd.LogWriter`), not on this event loop.
            var metadata: Logger.Metadata = [
                "handoff_id": .stringConvertible(handoffIDs.name(hop.handoffID)), "hop": .stringConvertible(hop.number),
                "url": .stringConvertible(RedactedURL(url: hop.url)), "app": .string(app ?? "-"), "rule": .string(rule ?? "-"),
                "outcome": .string(outcome), "latency_us": .stringConvertible(latency),
            ]
            if let peer = sender.peer {
                metadata["peer_uid"] = .stringConvertible(peer.uid)
                metadata["peer_pid"] = .stringConvertible(peer.pid)
            }
            if let client = sender.client { metadata["client"] = .string(client) }
            logger.info("handoff \(outcome)", metadata: metadata)
        }
        if watched {
            let shown = Redaction.redact(url: hop.url)
            events.publish(
                HandoffEvent(
                    time: Self.now(),
                    from: sender.peer,
                    client: sender.client,
                    hop: hop.number,
                    url: shown,
                    app: app,
                    rule: rule,
                    outcome: outcome,
                    latencyMicros: latency
                )
            )
        }
    }

    /// A hop's URL in the log, redacted when it is printed.
    private struct RedactedURL: CustomStringConvertible, Sendable {
        let url: String
        var description: String { Redaction.redact(url: url) }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

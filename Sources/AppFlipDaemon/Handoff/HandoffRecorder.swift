import AppFlipCore
import AppFlipProtocol
import Glibc
import NIOCore

/// The record of every hop: one info line in the log (all hops of one `open` under one handoff id) and one
/// `watch` event. The one place either is written; URLs are redacted here, and the log handler scrubs again.
final class HandoffRecorder: Sendable {
    private let events: EventHub
    private let log: any HandoffLog
    private let handoffIDs = HandoffIDs()

    init(events: EventHub, log: any HandoffLog) {
        self.events = events
        self.log = log
    }

    /// A new top-level handoff's number.
    func nextHandoffID() -> UInt64 {
        handoffIDs.next()
    }

    /// Records how `hop` ended. Costs nothing when neither the log level nor a `watch` subscriber wants it.
    /// Its records are logged from ``HandoffRecord/site``, which names this function.
    func record(_ result: Result<OpenResult, ErrorBody>, of hop: HandoffHop) {
        let logs = log.isEnabled
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
            let record = HandoffRecord(
                handoffID: handoffIDs.name(hop.handoffID),
                hop: hop.number,
                url: hop.url,
                app: app,
                rule: rule,
                outcome: outcome,
                latencyMicros: Int(latency),
                peer: sender.peer,
                client: sender.client
            )
            log.log(record)
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

    /// Records how a `start` ended: its `url` is the intent's `intent:` form, and the event carries the
    /// intent and its result with secret extras by their length only.
    func record(_ result: Result<StartResult, ErrorBody>, of hop: IntentHop, activity: String?) {
        let logs = log.isEnabled
        let watched = events.hasSubscribers
        guard logs || watched else { return }
        let intent = hop.request.intent
        let url = intent.uri(component: activity.map { $0.hasPrefix(intent.package + ".") ? String($0.dropFirst(intent.package.count)) : $0 })
        let outcome: String
        let app: String?
        switch result {
        case .success(let started):
            outcome = "handled"
            app = started.app
        case .failure(let error):
            outcome = error.code.rawValue
            app = error.app
        }
        let latency = (NIODeadline.now() - hop.started).nanoseconds / 1000
        if logs {
            log.log(
                HandoffRecord(
                    handoffID: handoffIDs.name(hop.handoffID),
                    hop: 0,
                    url: url,
                    app: app,
                    rule: nil,
                    outcome: outcome,
                    latencyMicros: Int(latency),
                    peer: hop.sender.peer,
                    client: hop.sender.client
                )
            )
        }
        if watched {
            let started = try? result.get()
            let shown = IntentEvent(
                action: intent.action,
                package: intent.package,
                activity: activity,
                forResult: hop.request.forResult,
                caller: hop.request.forResult ? hop.caller?.package : nil,
                extras: intent.redactedExtras,
                resultCode: started?.resultCode,
                resultExtras: started?.result?.redactedExtras
            )
            events.publish(
                HandoffEvent(
                    time: Self.now(),
                    from: hop.sender.peer,
                    client: hop.sender.client,
                    hop: 0,
                    url: url,
                    app: app,
                    rule: nil,
                    outcome: outcome,
                    latencyMicros: latency,
                    intent: shown
                )
            )
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension HandoffRecord {
    /// Where every record is logged from: ``HandoffRecorder``'s `record(_:of:)`, its one caller (the line
    /// is this one's, in the same file). A `HandoffLog` made once can then make the entry's call site once.
    public static let site = Site(file: #fileID, function: "record(_:of:)", line: #line)
}

public import AppFlipProtocol
import NIOConcurrencyHelpers

/// The daemon's `watch` events, kept so that a flip's hops can be timed from the daemon's own clock.
public final class FlipEventLog: Sendable {
    private let events = NIOLockedValueBox<[HandoffEvent]>([])
    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    /// Starts collecting `stream`, normally `AppFlipConnection`'s `watch()`.
    public init(_ stream: AsyncStream<HandoffEvent>) {
        let events = self.events
        task.withLockedValue {
            $0 = Task {
                for await event in stream { events.withLockedValue { $0.append(event) } }
            }
        }
    }

    /// Stops collecting; the events already kept stay.
    public func stop() {
        task.withLockedValue { $0?.cancel() }
    }

    /// Milliseconds of each step: routed = link sent → the partner's handoff began; handled = that →
    /// the partner opened the result (steps 2 and 3, inside the app); delivered = that → the Google app
    /// had it. Waits up to a second for the events, which the daemon publishes as each handoff ends.
    func times(link: String, result: String?, sent: Double, delivered: Double) async -> FlipTimes {
        let linkShown = Redaction.redact(url: link)
        let resultShown = result.map { Redaction.redact(url: $0) }
        for _ in 0..<100 {
            let (first, second) = events.withLockedValue { events in
                (events.last { $0.hop == 0 && $0.url == linkShown }, resultShown.flatMap { shown in events.last { $0.hop == 1 && $0.url == shown } })
            }
            if let first, result == nil || second != nil {
                let handoffStart = first.time - Double(first.latencyMicros) / 1e6
                let resultStart = second.map { $0.time - Double($0.latencyMicros) / 1e6 }
                return FlipTimes(
                    routed: max(0, (handoffStart - sent) * 1000),
                    handled: resultStart.map { max(0, ($0 - handoffStart) * 1000) } ?? max(0, (first.time - handoffStart) * 1000),
                    delivered: resultStart.map { max(0, (delivered - $0) * 1000) }
                )
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return FlipTimes()
    }
}

/// A link flip's steps in milliseconds, from the daemon's events (``FlipEventLog``); nil where they could
/// not be told.
struct FlipTimes {
    /// Step 1: the link sent → the partner's handoff began.
    var routed: Double?
    /// Steps 2 and 3: the handoff began → the partner opened the result.
    var handled: Double?
    /// Step 4: the result opened → the Google app had it.
    var delivered: Double?
}

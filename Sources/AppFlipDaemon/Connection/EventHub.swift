import AppFlipProtocol
import NIOConcurrencyHelpers
import NIOCore

/// The `watch` subscribers, and the one place handoff events are published.
///
/// A subscriber that does not read is skipped rather than buffered for: `watch` is best effort, the log is
/// the record.
final class EventHub: Sendable {
    private struct Subscriber: Sendable {
        var channel: any Channel
        var outbound: NIOLoopBound<OutboundLines>

        /// Checked again on the loop: the events of other loops all land before the end-of-turn flush.
        func send(_ event: HandoffEvent) {
            let outbound = outbound.value
            if outbound.isWritable { outbound.sendAtEndOfTurn(.event(event)) }
        }
    }

    private let subscribers = NIOLockedValueBox<[ObjectIdentifier: Subscriber]>([:])

    var hasSubscribers: Bool {
        subscribers.withLockedValue { !$0.isEmpty }
    }

    /// Subscribes a connection; call on its event loop.
    func subscribe(_ channel: any Channel, outbound: OutboundLines) {
        let subscriber = Subscriber(channel: channel, outbound: NIOLoopBound(outbound, eventLoop: channel.eventLoop))
        subscribers.withLockedValue { $0[ObjectIdentifier(channel)] = subscriber }
    }

    func unsubscribe(_ channel: any Channel) {
        _ = subscribers.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func publish(_ event: HandoffEvent) {
        let subscribers = subscribers.withLockedValue { Array($0.values) }
        for subscriber in subscribers where subscriber.channel.isWritable {
            let eventLoop = subscriber.channel.eventLoop
            if eventLoop.inEventLoop {
                subscriber.send(event)
            } else {
                eventLoop.execute { subscriber.send(event) }
            }
        }
    }
}

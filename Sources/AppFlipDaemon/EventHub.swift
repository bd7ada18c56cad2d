import AppFlipProtocol
import NIOConcurrencyHelpers
import NIOCore

/// The `watch` subscribers, and the one place handoff events are published.
///
/// A subscriber that does not read is skipped rather than buffered for: `watch` is best effort, the log is
/// the record.
final class EventHub: Sendable {
    private let subscribers = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    var hasSubscribers: Bool {
        subscribers.withLockedValue { !$0.isEmpty }
    }

    func subscribe(_ channel: any Channel) {
        subscribers.withLockedValue { $0[ObjectIdentifier(channel)] = channel }
    }

    func unsubscribe(_ channel: any Channel) {
        _ = subscribers.withLockedValue { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func publish(_ event: HandoffEvent) {
        let channels = subscribers.withLockedValue { Array($0.values) }
        for channel in channels where channel.isWritable {
            channel.writeAndFlush(ServerMessage.event(event), promise: nil)
        }
    }
}

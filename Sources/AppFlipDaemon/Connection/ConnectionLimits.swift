import AppFlipProtocol
import NIOConcurrencyHelpers

/// Counts open connections, in all and per peer uid, so that no client (nor one user's many clients) can
/// take every file descriptor the daemon has and lock the others out.
///
/// The last `reserved` slots go only to uids with fewer than `reservedPerUID` connections open: without
/// them, two uids at `maxPerUID` could fill `maxConnections` (256 + 256 of the default 512) and lock every
/// other user out.
final class ConnectionLimits: Sendable {
    private struct State {
        var total = 0
        var byUID: [UInt32: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let maxConnections: Int
    private let maxPerUID: Int
    private let reserved: Int
    private let reservedPerUID: Int

    init(maxConnections: Int, maxPerUID: Int, reserved: Int, reservedPerUID: Int) {
        self.maxConnections = maxConnections
        self.maxPerUID = maxPerUID
        self.reserved = reserved
        self.reservedPerUID = reservedPerUID
    }

    convenience init(_ configuration: DaemonConfiguration) {
        self.init(
            maxConnections: configuration.maxConnections,
            maxPerUID: configuration.maxConnectionsPerUID,
            reserved: configuration.reservedConnectionsInEffect,
            reservedPerUID: configuration.reservedConnectionsPerUID
        )
    }

    /// Takes a slot for a connection from `uid` (`nil` when the kernel did not say), or says why not.
    func admit(uid: UInt32?) -> ErrorBody? {
        state.withLockedValue { state in
            if state.total >= maxConnections {
                return ErrorBody(
                    .tooManyConnections,
                    "appflipd already has \(maxConnections) connections open (maxConnections); the connection is closed"
                )
            }
            let open = uid.map { state.byUID[$0, default: 0] }
            if let uid, let open, open >= maxPerUID {
                return ErrorBody(
                    .tooManyConnections,
                    "uid \(uid) already has \(maxPerUID) connections open (maxConnectionsPerUID); the connection is closed"
                )
            }
            // A peer whose uid is unknown cannot show it has few connections: no reserved slot for it.
            if state.total >= maxConnections - reserved, (open ?? .max) >= reservedPerUID {
                let who = uid.map { "uid \($0) already has \(open ?? 0)" } ?? "the peer's uid is unknown"
                return ErrorBody(
                    .tooManyConnections,
                    "only \(maxConnections - state.total) of appflipd's \(maxConnections) connections are free, kept for uids with fewer than "
                        + "\(reservedPerUID) open (reservedConnections); \(who); the connection is closed"
                )
            }
            if let uid { state.byUID[uid] = (open ?? 0) + 1 }
            state.total += 1
            return nil
        }
    }

    /// Gives back the slot of a connection ``admit(uid:)`` let in.
    func release(uid: UInt32?) {
        state.withLockedValue { state in
            state.total -= 1
            if let uid {
                let open = state.byUID[uid, default: 1] - 1
                state.byUID[uid] = open == 0 ? nil : open
            }
        }
    }
}

import AppFlipProtocol
import NIOConcurrencyHelpers

/// Counts open connections, in all and per peer uid, so that no client (nor one user's many clients) can
/// take every file descriptor the daemon has and lock the others out.
final class ConnectionLimits: Sendable {
    private struct State {
        var total = 0
        var byUID: [UInt32: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let maxConnections: Int
    private let maxPerUID: Int

    init(maxConnections: Int, maxPerUID: Int) {
        self.maxConnections = maxConnections
        self.maxPerUID = maxPerUID
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
            if let uid {
                let open = state.byUID[uid, default: 0]
                if open >= maxPerUID {
                    return ErrorBody(
                        .tooManyConnections,
                        "uid \(uid) already has \(maxPerUID) connections open (maxConnectionsPerUID); the connection is closed"
                    )
                }
                state.byUID[uid] = open + 1
            }
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

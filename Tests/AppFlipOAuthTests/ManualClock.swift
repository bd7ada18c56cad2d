import AppFlipCore
import AsyncHTTPClient
import FoundationEssentials
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import AppFlipOAuth

/// An expiry clock that only moves when told to.
final class ManualClock: ExpiryClock {
    private let current = Mutex(ContinuousClock.now)
    var now: ContinuousClock.Instant { current.withLock { $0 } }
    func advance(by duration: Duration) { current.withLock { $0 += duration } }
}

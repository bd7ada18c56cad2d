import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import FoundationEssentials
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

@testable import AppFlipOAuth

/// Predictable "random" bytes: a counter, so every token differs and every run is the same.
final class CountingRandom: RandomSource {
    private let counter = Mutex<UInt8>(0)
    func bytes(_ count: Int) -> [UInt8] {
        counter.withLock { counter in
            counter &+= 1
            return [UInt8](repeating: counter, count: count)
        }
    }
}

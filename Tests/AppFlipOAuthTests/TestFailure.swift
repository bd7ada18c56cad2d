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

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

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

/// A raw HTTP answer: status, headers and body as text.
struct RawResponse: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: String
    var location: String? { headers.first(name: "Location") }
}

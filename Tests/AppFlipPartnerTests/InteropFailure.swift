import AppFlipCore
import AppFlipOAuth
import AppFlipTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import ThirdPartyFixtures

struct InteropFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

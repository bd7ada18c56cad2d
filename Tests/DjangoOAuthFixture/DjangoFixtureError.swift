import AppFlipCore
import AsyncHTTPClient
import Foundation
import NIOCore

/// The fixture could not bring django-oauth-toolkit up, or sign in.
public struct DjangoFixtureError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

public import AppFlipConfiguration
public import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore
import SystemPackage

/// Builds the handler an `apps.d` file asks for. The `handler` object of an app file has exactly one key,
/// the factory's ``kind``, whose value is that factory's configuration.
///
/// A new kind of static handler (the App Flip partner handler) is one conforming type, passed to
/// ``DaemonService`` with the built-in ones.
public protocol HandlerFactory: Sendable {
    /// The key in an app file's `handler` object: `exec`, `builtin`, …
    var kind: String { get }

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler
}

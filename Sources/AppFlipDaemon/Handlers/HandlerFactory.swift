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

/// `"builtin": "accept"`.
struct BuiltinHandlerFactory: HandlerFactory {
    let kind = "builtin"

    /// The built-in handlers, by name.
    private enum Name: String, Decodable {
        case accept

        init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let known = Name(rawValue: name) else {
                throw ConfigurationError(at: decoder.codingPath, "the only built-in handler is \"accept\"")
            }
            self = known
        }
    }

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler {
        switch try context.decode(Name.self, from: configuration) {
        case .accept: AcceptHandler()
        }
    }
}

/// The handler factories every daemon has: `exec` and `builtin`.
public enum BuiltinHandlerFactories {
    /// `exec` and `builtin`; pass them with any extra factories to ``DaemonService`` so app files can keep using them.
    public static let all: [any HandlerFactory] = [ExecHandlerFactory(), BuiltinHandlerFactory()]
}

/// `"handler": {"builtin": "accept"}`: continues every activity at once and opens nothing, and returns
/// `RESULT_OK` with no extras to every intent.
///
/// The cheapest possible app, so that `appflip-bench` can measure the daemon's own cost, and a stand-in
/// for an app whose only job is to exist.
struct AcceptHandler: ActivityHandler {
    let kind = "builtin:accept"

    func handle(_ handoff: Handoff) {
        handoff.answer(.success(.continue))
    }

    /// Returns `RESULT_OK` with no extras at once.
    func handle(_ intent: IntentHandoff) {
        intent.finish(.success(IntentResult(resultCode: IntentResult.ok)))
    }
}

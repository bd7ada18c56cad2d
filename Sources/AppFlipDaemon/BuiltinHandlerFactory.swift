import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore
import SystemPackage

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

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

/// What a factory may need to know about the app file it builds a handler for.
public struct HandlerFactoryContext: Sendable {
    public var appID: String
    /// The app file's path, for error messages.
    public var file: String
    /// Where the handler's configuration is in the app file, `handler.<kind>`: the prefix of every field
    /// its errors name.
    public var field: String
    /// The app file's directory: relative paths in it are relative to this.
    public var directory: String
    public var daemon: DaemonConfiguration

    public init(appID: String, file: String, field: String, directory: String, daemon: DaemonConfiguration) {
        self.appID = appID
        self.file = file
        self.field = field
        self.directory = directory
        self.daemon = daemon
    }

    /// Decodes the handler's configuration as `T` through the configuration loader, with errors that name
    /// the file and the field. `T`'s `init(from:)` finds this context as `decoder.handlerFactoryContext`.
    public func decode<T: Decodable>(_ type: T.Type, from configuration: JSONValue) throws(ConfigurationError) -> T {
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(configuration))
        } catch {
            throw ConfigurationError(file: file, field: field, "cannot be read: \(error)")
        }
        do {
            return try ConfigurationFile.decode(T.self, from: bytes, file: "", userInfo: [.handlerFactoryContext: self])
        } catch {
            throw error.nested(under: field).located(in: file)
        }
    }
}

extension CodingUserInfoKey {
    fileprivate static let handlerFactoryContext = CodingUserInfoKey(rawValue: "appflipd.handlerFactoryContext")!
}

extension Decoder {
    /// The app file a handler configuration is decoded from, for defaults that come from the daemon's
    /// configuration; `nil` outside ``HandlerFactoryContext/decode(_:from:)``.
    public var handlerFactoryContext: HandlerFactoryContext? {
        userInfo[.handlerFactoryContext] as? HandlerFactoryContext
    }
}

/// The handler factories every daemon has: `exec` and `builtin`.
public enum BuiltinHandlerFactories {
    public static let all: [any HandlerFactory] = [ExecHandlerFactory(), BuiltinHandlerFactory()]
}

/// `"exec": {"command": "…", "args": […], "timeoutSeconds": 5}`.
struct ExecHandlerFactory: HandlerFactory {
    let kind = "exec"

    private struct Configuration: Decodable {
        var command: String
        var args: [String]?
        var timeoutSeconds: Double?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case command, args, timeoutSeconds
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
            command = try container.decode(String.self, forKey: .command)
            args = try container.decodeIfPresent([String].self, forKey: .args)
            timeoutSeconds = try container.decodeIfPresent(Double.self, forKey: .timeoutSeconds)
        }
    }

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler {
        let exec = try context.decode(Configuration.self, from: configuration)
        let command = ConfigurationFile.resolve(exec.command, against: context.directory)
        guard access(command, X_OK) == 0 else {
            throw ConfigurationError(file: context.file, field: "\(context.field).command", "\(command) is not an executable file")
        }
        let timeout = exec.timeoutSeconds ?? context.daemon.execTimeoutSeconds
        guard timeout > 0, timeout <= 3600 else {
            throw ConfigurationError(file: context.file, field: "\(context.field).timeoutSeconds", "must be more than 0 and at most 3600")
        }
        return ExecHandler(
            command: FilePath(command), arguments: exec.args ?? [], timeout: .milliseconds(Int64(timeout * 1000)),
            workingDirectory: FilePath(context.directory), maxLineBytes: context.daemon.maxLineBytes)
    }
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

import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
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
    /// The app file's directory: relative paths in it are relative to this.
    public var directory: String
    public var daemon: DaemonConfiguration

    /// Decodes the handler's configuration as `T`, with errors that name the file and the field.
    public func decode<T: Decodable>(_ type: T.Type, from configuration: JSONValue) throws(ConfigurationError) -> T {
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(configuration))
        } catch {
            throw ConfigurationError(file: file, field: "handler", "cannot be read: \(error)")
        }
        do {
            return try ConfigFile.decode(T.self, from: bytes, file: file)
        } catch {
            throw ConfigurationError(file: file, field: error.field.map { "handler.\($0)" } ?? "handler", error.message)
        }
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
    }

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler {
        let exec = try context.decode(Configuration.self, from: configuration)
        let command = ConfigFile.resolve(exec.command, against: context.directory)
        guard access(command, X_OK) == 0 else {
            throw ConfigurationError(file: context.file, field: "handler.exec.command", "\(command) is not an executable file")
        }
        let timeout = exec.timeoutSeconds ?? context.daemon.execTimeoutSeconds
        guard timeout > 0, timeout <= 3600 else {
            throw ConfigurationError(file: context.file, field: "handler.exec.timeoutSeconds", "must be more than 0 and at most 3600")
        }
        return ExecHandler(
            command: FilePath(command), arguments: exec.args ?? [], timeout: .milliseconds(Int64(timeout * 1000)),
            workingDirectory: FilePath(context.directory), maxLineBytes: context.daemon.maxLineBytes)
    }
}

/// `"builtin": "accept"`.
struct BuiltinHandlerFactory: HandlerFactory {
    let kind = "builtin"

    func makeHandler(_ configuration: JSONValue, context: HandlerFactoryContext) throws(ConfigurationError) -> any ActivityHandler {
        guard configuration == .string("accept") else {
            throw ConfigurationError(file: context.file, field: "handler.builtin", "the only built-in handler is \"accept\"")
        }
        return AcceptHandler()
    }
}

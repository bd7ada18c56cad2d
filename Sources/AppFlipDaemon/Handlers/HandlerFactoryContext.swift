public import AppFlipConfiguration
public import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore
import SystemPackage

/// What a factory may need to know about the app file it builds a handler for.
public struct HandlerFactoryContext: Sendable {
    /// The app id of the app file, `TEAMID.bundle.id`.
    public var appID: String
    /// The app file's path, for error messages.
    public var file: String
    /// Where the handler's configuration is in the app file, `handler.<kind>`: the prefix of every field
    /// its errors name.
    public var field: String
    /// The app file's directory: relative paths in it are relative to this.
    public var directory: String
    /// The daemon's settings, e.g. the default ``DaemonConfiguration/execTimeoutSeconds``.
    public var daemon: DaemonConfiguration

    /// Creates a context; the daemon makes one per app file, tests may make their own.
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

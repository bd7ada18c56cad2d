import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import SystemPackage

/// The handler factories every daemon has: `exec` and `builtin`.
public enum BuiltinHandlerFactories {
    public static let all: [any HandlerFactory] = [ExecHandlerFactory(), BuiltinHandlerFactory()]
}

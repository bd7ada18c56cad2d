import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc
import NIOCore
import SystemPackage

/// The handler factories every daemon has: `exec` and `builtin`.
public enum BuiltinHandlerFactories {
    /// `exec` and `builtin`; pass them with any extra factories to ``DaemonService`` so app files can keep using them.
    public static let all: [any HandlerFactory] = [ExecHandlerFactory(), BuiltinHandlerFactory()]
}

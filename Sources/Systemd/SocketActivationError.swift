import CSystemd
import Glibc

/// A socket passed by systemd cannot serve as the daemon's listener.
public enum SocketActivationError: Error, Sendable, Hashable, CustomStringConvertible {
    case notAListeningUnixStreamSocket(name: String, fileDescriptor: Int32)

    /// A sentence naming the socket and the unit setting to check.
    public var description: String {
        switch self {
        case .notAListeningUnixStreamSocket(let name, let fileDescriptor):
            "the socket named \(name) (fd \(fileDescriptor)) passed by systemd is not a listening Unix stream socket; "
                + "check ListenStream= in the .socket unit"
        }
    }
}

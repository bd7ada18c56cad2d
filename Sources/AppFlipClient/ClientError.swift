public import AppFlipProtocol
import Glibc

/// Why a client request has no reply: the connection closed, or the daemon said something unreadable.
public enum ClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The connection closed before the reply came.
    case connectionClosed
    /// The daemon's reply was not protocol v1.
    case protocolViolation(String)
    /// A reply of another op came back for this request.
    case unexpectedReply(Op?)

    /// A sentence for people, naming the op where there is one.
    public var description: String {
        switch self {
        case .connectionClosed: "the connection to appflipd closed before the reply"
        case .protocolViolation(let reason): "appflipd sent something that is not protocol v1: \(reason)"
        case .unexpectedReply(let op): "appflipd answered with a reply for \(op?.rawValue ?? "no op")"
        }
    }
}

/// The one sentence every command prints when appflipd cannot be reached: which socket, what was found
/// there, and how to start the daemon. The underlying NIO error is left out: it says less than this, once per retry.
public enum DaemonUnreachable {
    /// E.g. "appflipd is not running at /run/appflipd/appflipd.sock (no socket there): start it with …".
    public static func sentence(socketPath: String) -> String {
        var status = stat()
        let found: String
        if stat(socketPath, &status) != 0 {
            found = errno == EACCES ? "permission denied: join the appflip group or use your own daemon" : "no socket there"
        } else if (status.st_mode & mode_t(S_IFMT)) != mode_t(S_IFSOCK) {
            found = "that file is not a socket"
        } else if access(socketPath, R_OK | W_OK) != 0 {
            found = "permission denied: join the appflip group or use your own daemon"
        } else {
            found = "the socket refuses connections"
        }
        return "appflipd is not running at \(socketPath) (\(found)): start it with `sudo systemctl start appflipd.socket`, "
            + "`systemctl --user start appflipd.socket`, or `appflipd --socket \(socketPath)`, or point --socket or $APPFLIP_SOCKET at a running daemon"
    }
}

public import AppFlipProtocol

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

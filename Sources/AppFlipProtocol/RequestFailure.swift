import FoundationEssentials

/// Why a request line was refused, with whatever `id` and `op` could be read so that the error reply
/// still reaches the right caller.
public struct RequestFailure: Error, Sendable, Hashable {
    /// The request's `id`, when it could be read.
    public var id: RequestID?
    /// The request's `op`, when it could be read.
    public var op: Op?
    /// Why the request is refused.
    public var error: ErrorBody

    /// Creates a failure.
    public init(id: RequestID?, op: Op?, error: ErrorBody) {
        self.id = id
        self.op = op
        self.error = error
    }

    /// The error reply to send for this failure.
    public var reply: Reply { Reply(id: id, op: op, error: error) }
}

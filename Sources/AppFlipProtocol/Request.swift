import AppFlipCore

/// A request line: `{"id": …, "op": …, …fields}`.
public struct Request: Sendable, Hashable {
    /// The caller's id, echoed in the reply.
    public var id: RequestID
    /// The op and its parameters.
    public var body: RequestBody

    /// Creates a request.
    public init(id: RequestID, _ body: RequestBody) {
        self.id = id
        self.body = body
    }
}

import AppFlipCore

/// A request line: `{"id": …, "op": …, …fields}`.
public struct Request: Sendable, Hashable {
    public var id: RequestID
    public var body: RequestBody

    public init(id: RequestID, _ body: RequestBody) {
        self.id = id
        self.body = body
    }
}

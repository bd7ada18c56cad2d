/// The final reply to one request: `{"id":…,"op":…,"ok":true,"result":{…}}` or `{…,"ok":false,"error":{…}}`.
public struct Reply: Sendable, Hashable {
    /// `nil` only when the request's own `id` could not be read.
    public var id: RequestID?
    /// `nil` only when the request's `op` could not be read.
    public var op: Op?
    /// The result, or the error the request ended with.
    public var outcome: Result<ReplyResult, ErrorBody>

    /// The error, for a reply that is one.
    public var error: ErrorBody? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// A successful reply; its `op` is the result's.
    public init(id: RequestID?, result: ReplyResult) {
        self.id = id
        self.op = result.op
        self.outcome = .success(result)
    }

    /// An error reply; `id` and `op` are whatever could be read from the request.
    public init(id: RequestID?, op: Op?, error: ErrorBody) {
        self.id = id
        self.op = op
        self.outcome = .failure(error)
    }
}

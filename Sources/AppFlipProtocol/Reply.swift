/// The final reply to one request: `{"id":…,"op":…,"ok":true,"result":{…}}` or `{…,"ok":false,"error":{…}}`.
public struct Reply: Sendable, Hashable {
    /// `nil` only when the request's own `id` could not be read.
    public var id: RequestID?
    /// `nil` only when the request's `op` could not be read.
    public var op: Op?
    public var outcome: Result<ReplyResult, ErrorBody>

    /// The error, for a reply that is one.
    public var error: ErrorBody? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    public init(id: RequestID?, result: ReplyResult) {
        self.id = id
        self.op = result.op
        self.outcome = .success(result)
    }

    public init(id: RequestID?, op: Op?, error: ErrorBody) {
        self.id = id
        self.op = op
        self.outcome = .failure(error)
    }
}

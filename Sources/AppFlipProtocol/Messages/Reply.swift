/// Anything the daemon writes: a reply, or a push that answers no request.
public enum ServerMessage: Sendable, Hashable {
    case reply(Reply)
    case activity(ActivityPush)
    case event(HandoffEvent)
    case intent(IntentPush)
}

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

/// The result half of a successful reply, one case per op.
public enum ReplyResult: Sendable, Hashable {
    case hello(HelloResult)
    case open(OpenResult)
    case register(RegisterResult)
    case answer(AnswerResult)
    case explain(ExplainResult)
    case apps(AppsResult)
    case watch(WatchResult)
    case start(StartResult)
    /// The acknowledgement of a `result`, like an `answer`'s.
    case result(AnswerResult)

    /// The op this result answers.
    public var op: Op {
        switch self {
        case .hello: .hello
        case .open: .open
        case .register: .register
        case .answer: .answer
        case .explain: .explain
        case .apps: .apps
        case .watch: .watch
        case .start: .start
        case .result: .result
        }
    }
}

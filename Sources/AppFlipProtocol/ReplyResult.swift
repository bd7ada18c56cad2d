/// The result half of a successful reply, one case per op.
public enum ReplyResult: Sendable, Hashable {
    case hello(HelloResult)
    case open(OpenResult)
    case register(RegisterResult)
    case answer(AnswerResult)
    case explain(ExplainResult)
    case apps(AppsResult)
    case watch(WatchResult)

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
        }
    }
}

import AppFlipCore

/// One request of protocol v1.
public enum RequestBody: Sendable, Hashable {
    case hello(HelloRequest)
    case open(OpenRequest)
    case register(RegisterRequest)
    case answer(AnswerRequest)
    case explain(ExplainRequest)
    /// `apps`: the registry.
    case apps
    /// `watch`: stream an `event` push for every handoff from now on.
    case watch

    /// The request's `op` on the wire.
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

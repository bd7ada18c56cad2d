import AppFlipCore
import FoundationEssentials

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

/// The operation names of protocol v1.
public enum Op: String, Sendable, Hashable, Codable, CaseIterable {
    case hello, open, register, answer, explain, apps, watch, start, result
}

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
    case start(StartRequest)
    case result(ResultRequest)

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
        case .start: .start
        case .result: .result
        }
    }
}

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

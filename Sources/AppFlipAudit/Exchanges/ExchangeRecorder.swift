import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import NIOHTTP1
import Synchronization

/// Every HTTP exchange of one audit run, in order: each redacted ``RecordedExchange``, with the answer as
/// the judges read it. The answers (tokens included) stay in memory; only the redacted records leave.
final class ExchangeRecorder: Sendable {
    /// An exchange with what the judges need of it.
    struct Exchange: Sendable {
        var record: RecordedExchange
        var answer: Answer?
        /// Whether Google's server or app could send this request: not another client authentication method
        /// than the ones the token endpoint accepts, nor a probe of an option Google never uses.
        var googleSends: Bool
        /// What a token request asked for.
        var grant: Grant?
        /// How the client authenticated, for a token or revocation request.
        var clientAuth: ClientAuthMethod?
    }

    enum Answer: Sendable {
        case token(TokenAnswer)
        case resource(ResourceAnswer)
        case authorization(AuthorizationAnswer)
    }

    enum Grant: Sendable, Equatable {
        case authorizationCode, refreshToken, revocation, other
    }

    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let state = Mutex<(next: Int, exchanges: [Exchange])>((1, []))
    /// The handoffs through appflipd, numbered in the same sequence as the HTTP exchanges.
    private let handoffState = Mutex<[RecordedHandoff]>([])

    init() {
        start = clock.now
    }

    /// A number for a request about to be sent, and the instant it is.
    func begin() -> (id: Int, at: ContinuousClock.Instant) {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return (id, clock.now)
    }

    /// Since the run began.
    func offset(_ instant: ContinuousClock.Instant) -> Duration { instant - start }

    /// The time since `instant`.
    func elapsed(since instant: ContinuousClock.Instant) -> Duration { clock.now - instant }

    func add(_ exchange: Exchange) {
        state.withLock { $0.exchanges.append(exchange) }
    }

    /// Attaches the answer a chain of exchanges came to, to the chain's first exchange.
    func attach(_ answer: Answer, to id: Int) {
        state.withLock { state in
            if let index = state.exchanges.firstIndex(where: { $0.record.id == id }) { state.exchanges[index].answer = answer }
        }
    }

    /// Marks an exchange as one Google could send after all: the method it used was shown to be accepted.
    func markGoogleSends(_ id: Int) {
        state.withLock { state in
            if let index = state.exchanges.firstIndex(where: { $0.record.id == id }) { state.exchanges[index].googleSends = true }
        }
    }

    /// Every exchange so far, by id.
    var exchanges: [Exchange] {
        state.withLock { $0.exchanges }.sorted { $0.record.id < $1.record.id }
    }

    /// The redacted records, by id.
    var records: [RecordedExchange] { exchanges.map(\.record) }

    func add(_ handoff: RecordedHandoff) {
        handoffState.withLock { $0.append(handoff) }
    }

    /// Every handoff through appflipd so far, by id.
    var handoffs: [RecordedHandoff] {
        handoffState.withLock { $0 }.sorted { $0.id < $1.id }
    }
}

extension ExchangeRecorder {
    /// A request about to be sent, as it is recorded.
    struct Sending {
        var endpoint: RecordedExchange.Endpoint
        var purpose: String
        var method: String
        var url: String
        var headers: HTTPHeaders
        var form: [(name: String, value: String)] = []
        var googleSends = true
        var grant: Grant?
        var clientAuth: ClientAuthMethod?
        /// What the request sent that an answer may echo: shown only as a fingerprint.
        var secrets: [String] = []
    }

    /// A GET whose connection was closed or reset before any byte of the answer is sent once more: the pool
    /// may have handed out a connection the server was closing (uvicorn closes one after a 204), and a client
    /// may retry an idempotent request then (RFC 9110 §9.2.2, RFC 9112 §9.3.1). A server that closes every time
    /// still fails the second attempt, as it should.
    private static func retryingIdempotent(_ method: String, _ exchange: () async throws -> BoundedResponse) async throws -> BoundedResponse {
        do {
            return try await exchange()
        } catch let failure as TransportFailure
            where method == "GET" && failure.kind == .closed && failure.description.hasSuffix("the connection before answering")
        {
            return try await exchange()
        }
    }

    /// Sends `request` with `exchange`, records it redacted with its timings, and returns its number, the
    /// response and the answer `reading` makes of it (attached for the judges). A request that got no answer is
    /// recorded with why, and throws.
    func perform<Value: Sendable>(
        _ sending: Sending,
        exchange: () async throws -> BoundedResponse,
        reading: (Int, BoundedResponse) -> (Answer?, Value)
    ) async throws(AuditUnreachable) -> (id: Int, response: BoundedResponse, value: Value) {
        let (id, started) = begin()
        var record = RecordedExchange(
            id: id,
            endpoint: sending.endpoint,
            purpose: sending.purpose,
            request: RecordedExchange.Request(
                method: sending.method,
                url: LocationText.shown(sending.url),
                headers: sending.headers.map { Redaction.header($0.name, $0.value) },
                form: sending.form.map { Redaction.field($0.name, $0.value) }
            ),
            response: nil,
            failure: nil,
            started: offset(started),
            duration: .zero
        )
        let noted = { (record: RecordedExchange, answer: Answer?) in
            Exchange(record: record, answer: answer, googleSends: sending.googleSends, grant: sending.grant, clientAuth: sending.clientAuth)
        }
        do {
            let response = try await Self.retryingIdempotent(sending.method, exchange)
            let (answer, value) = reading(id, response)
            record.duration = elapsed(since: started)
            record.response = RecordedExchange.Response(
                status: Int(response.status.code),
                httpVersion: "\(response.version)",
                headers: response.headers.map { Redaction.header($0.name, $0.value) },
                body: Redaction.body(response.body, contentType: response.headers.first(name: "Content-Type"), secretsSent: sending.secrets),
                bodySize: response.body.count
            )
            add(noted(record, answer))
            return (id, response, value)
        } catch {
            record.failure = "\(error)"
            record.duration = elapsed(since: started)
            add(noted(record, nil))
            throw AuditUnreachable("\(error)")
        }
    }
}

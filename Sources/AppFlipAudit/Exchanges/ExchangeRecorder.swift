import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import NIOConcurrencyHelpers
import NIOHTTP1

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
        /// A server error (5xx) answered while other requests of the audit were in flight at the endpoint: the
        /// server did not bear the audit's concurrency, and the answer says nothing about a rule.
        var overloaded = false
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
    /// One bound per kind of partner endpoint (`--concurrency`): however many checks run at once, no endpoint
    /// has more of the audit's requests in flight than it.
    private let gates = Dictionary(
        uniqueKeysWithValues: RecordedExchange.Endpoint.allCases.map { ($0, AsyncGate(capacity: Auditor.defaultConcurrency)) }
    )
    /// The audit's requests in flight at each kind of endpoint.
    private let inFlight = NIOLockedValueBox<[RecordedExchange.Endpoint: Int]>([:])
    private let state = NIOLockedValueBox<(next: Int, exchanges: [Exchange])>((1, []))
    /// The handoffs through appflipd, numbered in the same sequence as the HTTP exchanges.
    private let handoffState = NIOLockedValueBox<[RecordedHandoff]>([])

    init() {
        start = clock.now
    }

    /// How many requests each kind of endpoint may have in flight at once.
    func limit(_ concurrency: Int) {
        for gate in gates.values { gate.setCapacity(concurrency) }
    }

    /// A number for a request about to be sent, and the instant it is.
    func begin() -> (id: Int, at: ContinuousClock.Instant) {
        let id = state.withLockedValue { state in
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
        state.withLockedValue { $0.exchanges.append(exchange) }
    }

    /// Attaches the answer a chain of exchanges came to, to the chain's first exchange.
    func attach(_ answer: Answer, to id: Int) {
        state.withLockedValue { state in
            if let index = state.exchanges.firstIndex(where: { $0.record.id == id }) { state.exchanges[index].answer = answer }
        }
    }

    /// Marks an exchange as one Google could send after all: the method it used was shown to be accepted.
    func markGoogleSends(_ id: Int) {
        state.withLockedValue { state in
            if let index = state.exchanges.firstIndex(where: { $0.record.id == id }) { state.exchanges[index].googleSends = true }
        }
    }

    /// Every exchange so far, by id.
    var exchanges: [Exchange] {
        state.withLockedValue { $0.exchanges }.sorted { $0.record.id < $1.record.id }
    }

    /// The redacted records, by id.
    var records: [RecordedExchange] { exchanges.map(\.record) }

    func add(_ handoff: RecordedHandoff) {
        handoffState.withLockedValue { $0.append(handoff) }
    }

    /// Every handoff through appflipd so far, by id.
    var handoffs: [RecordedHandoff] {
        handoffState.withLockedValue { $0 }.sorted { $0.id < $1.id }
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
        /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2): a GET by its
        /// method, a revocation (RFC 7009 §2.2: revoking a revoked token changes nothing) and a sign-out by
        /// their semantics. A code or refresh grant is not: its material is spent or rotated.
        var idempotent: Bool

        init(
            endpoint: RecordedExchange.Endpoint,
            purpose: String,
            method: String,
            url: String,
            headers: HTTPHeaders,
            form: [(name: String, value: String)] = [],
            googleSends: Bool = true,
            grant: Grant? = nil,
            clientAuth: ClientAuthMethod? = nil,
            secrets: [String] = [],
            idempotent: Bool? = nil
        ) {
            self.endpoint = endpoint
            self.purpose = purpose
            self.method = method
            self.url = url
            self.headers = headers
            self.form = form
            self.googleSends = googleSends
            self.grant = grant
            self.clientAuth = clientAuth
            self.secrets = secrets
            self.idempotent = idempotent ?? (method == "GET" || grant == .revocation || endpoint == .signOut)
        }
    }

    /// An idempotent request whose connection was closed before any byte of the answer is sent once more:
    /// the pool may have handed out a connection the server was closing (uvicorn closes one after a 204), and
    /// a client may retry a request whose semantics are idempotent (RFC 9112 §9.3.1, RFC 9110 §9.2.2). A code
    /// or refresh grant is judged as it is: the server may have spent or rotated its material before closing,
    /// and sending it again would be a replay the audit did not mean. A server that closes every time still
    /// fails the second attempt, as it should. (A request never written, on a connection already closed, is
    /// sent again by the HTTP client itself, whatever its method.)
    private static func retryingIdempotent(_ idempotent: Bool, _ exchange: () async throws -> BoundedResponse) async throws -> BoundedResponse {
        do {
            return try await exchange()
        } catch let failure as TransportFailure
            where idempotent && failure.kind == .closed && failure.description.hasSuffix("the connection before answering")
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
        let gate = gates[sending.endpoint]!
        let outcome = try await gate.run { () async throws(AuditUnreachable) in
            try await performNow(sending, exchange: exchange, reading: reading)
        }
        guard outcome.overloaded else { return (outcome.id, outcome.response, outcome.value) }
        // A server error under the audit's concurrency: from now on one request at a time to this endpoint. A
        // request whose effect is the same sent twice is sent again, alone, and that answer is the one judged;
        // another (a code or refresh grant) stands as answered, unjudged by the rules, since its material may
        // be spent (RFC 9110 §9.2.2).
        gate.setCapacity(1)
        guard sending.idempotent else { return (outcome.id, outcome.response, outcome.value) }
        var again = sending
        again.purpose += " (sent again alone: the first attempt got HTTP \(outcome.response.status.code) with other requests in flight)"
        let retried = try await gate.run { () async throws(AuditUnreachable) in
            try await performNow(again, exchange: exchange, reading: reading)
        }
        return (retried.id, retried.response, retried.value)
    }

    /// `perform`, once the endpoint's bound lets the request go; `overloaded` when it got a server error with
    /// other requests in flight at the endpoint.
    private func performNow<Value: Sendable>(
        _ sending: Sending,
        exchange: () async throws -> BoundedResponse,
        reading: (Int, BoundedResponse) -> (Answer?, Value)
    ) async throws(AuditUnreachable) -> (id: Int, response: BoundedResponse, value: Value, overloaded: Bool) {
        inFlight.withLockedValue { $0[sending.endpoint, default: 0] += 1 }
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
            let response = try await Self.retryingIdempotent(sending.idempotent, exchange)
            let (answer, value) = reading(id, response)
            record.duration = elapsed(since: started)
            record.response = RecordedExchange.Response(
                status: Int(response.status.code),
                httpVersion: "\(response.version)",
                headers: response.headers.map { Redaction.header($0.name, $0.value) },
                body: Redaction.body(response.body, contentType: response.headers.first(name: "Content-Type"), secretsSent: sending.secrets),
                bodySize: response.body.count
            )
            let overloaded = inFlight.withLockedValue { inFlight in
                defer { inFlight[sending.endpoint, default: 1] -= 1 }
                return response.status.code >= 500 && inFlight[sending.endpoint, default: 0] > 1
            }
            var exchange = noted(record, answer)
            exchange.overloaded = overloaded
            add(exchange)
            return (id, response, value, overloaded)
        } catch {
            inFlight.withLockedValue { $0[sending.endpoint, default: 1] -= 1 }
            record.failure = "\(error)"
            record.duration = elapsed(since: started)
            add(noted(record, nil))
            throw AuditUnreachable("\(error)")
        }
    }
}

import AppFlipCore
import AppFlipGoogle
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
}

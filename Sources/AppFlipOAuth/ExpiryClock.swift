/// The clock that codes and access tokens expire by. Injected so that tests move time instead of waiting.
public protocol ExpiryClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

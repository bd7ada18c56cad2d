/// The clock that codes and access tokens expire by. Injected so that tests move time instead of waiting.
public protocol ExpiryClock: Sendable {
    var now: ContinuousClock.Instant { get }
}

/// The monotonic system clock: expiry is immune to wall-clock jumps.
public struct SystemExpiryClock: ExpiryClock {
    /// Creates the clock; it has no state.
    public init() {}
    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { .now }
}

/// The monotonic system clock: expiry is immune to wall-clock jumps.
public struct SystemExpiryClock: ExpiryClock {
    public init() {}
    public var now: ContinuousClock.Instant { .now }
}

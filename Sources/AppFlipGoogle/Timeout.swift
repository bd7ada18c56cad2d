import Glibc

/// No answer within the time limit.
struct FlipTimeoutError: Error, CustomStringConvertible {
    var description: String { "timed out" }
}

/// `body`'s value, or ``FlipTimeoutError`` once `timeout` has passed (then `body` is cancelled).
package func withTimeout<Value: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() ?? nil else { throw FlipTimeoutError() }
        return value
    }
}

/// Wall-clock seconds, comparable with the daemon's event times on the same machine.
public enum WallClock {
    /// Seconds since the Unix epoch from `CLOCK_REALTIME`, as the daemon stamps `HandoffEvent.time`.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Milliseconds from `start` (seconds, from ``now()``) until now.
    public static func since(_ start: Double) -> Double { (now() - start) * 1000 }
    /// Milliseconds from `start` to `end`, both in seconds.
    public static func between(_ start: Double, _ end: Double) -> Double { (end - start) * 1000 }
}

/// Polls `condition` every 10 ms until it holds, and throws ``WaitTimeout``, naming `what`, once `limit` has
/// passed: a condition that never comes fails the test instead of hanging it. It sleeps as a task, never
/// blocking one of the cooperative pool's threads (two on a 2-core machine), which the daemons and servers of
/// the tests running beside it need.
public func waitUntil(
    _ what: String,
    within limit: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(description: "\(what): not within \(limit)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// What ``waitUntil(_:within:_:)`` throws when its condition does not come in time.
public struct WaitTimeout: Error, CustomStringConvertible {
    public var description: String
}

/// Polls `condition` every 10 ms until it holds, and throws, naming `what`, once `limit` has passed: a
/// condition that never comes fails the test instead of hanging it.
func waitUntil(_ what: String, within limit: Duration = .seconds(30), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimeout(description: "\(what): not within \(limit)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// What ``waitUntil(_:within:_:)`` throws when its condition does not come in time.
struct WaitTimeout: Error, CustomStringConvertible {
    var description: String
}

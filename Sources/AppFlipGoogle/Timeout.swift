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

import NIOConcurrencyHelpers

/// At most `capacity` pieces of work at once, from tasks that otherwise run at once; the others wait, in
/// arrival order. The audit's flips go through one of capacity 1, since the Google app's deliveries cannot
/// be told apart by flip; each kind of partner endpoint through one of `--concurrency`, so that however
/// the checks overlap, no endpoint sees more requests at once than the bound.
final class AsyncGate: Sendable {
    private struct State {
        var capacity: Int
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: NIOLockedValueBox<State>

    init(capacity: Int) {
        state = NIOLockedValueBox(State(capacity: max(capacity, 1)))
    }

    /// Changes the bound for work that has not started yet.
    func setCapacity(_ capacity: Int) {
        let released = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.capacity = max(capacity, 1)
            let free = max(state.capacity - state.running, 0)
            let next = Array(state.waiting.prefix(free))
            state.waiting.removeFirst(next.count)
            state.running += next.count
            return next
        }
        for continuation in released { continuation.resume() }
    }

    func run<Value, Failure: Error>(_ body: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state in
                guard state.running < state.capacity else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func leave() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty, state.running <= state.capacity else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

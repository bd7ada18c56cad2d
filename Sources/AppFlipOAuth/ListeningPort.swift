import NIOConcurrencyHelpers

/// The port a server bound, for whoever waits for it: with port 0 only the running server knows it.
final class ListeningPort: Sendable {
    struct ServerNotListening: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    private enum State {
        case waiting([CheckedContinuation<Int, any Error>])
        case listening(Int)
        case failed(ServerNotListening)
    }

    private let state = NIOLockedValueBox(State.waiting([]))

    /// Resolves every waiter, now and later, with the bound port.
    func bound(_ port: Int) {
        resolve(with: .listening(port))
    }

    /// Resolves every waiter with an error: the server failed to start, or stopped.
    func failed(_ reason: String) {
        resolve(with: .failed(ServerNotListening(description: reason)))
    }

    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Int, ServerNotListening>? = state.withLockedValue { state in
                switch state {
                case .waiting(var waiters):
                    waiters.append(continuation)
                    state = .waiting(waiters)
                    return nil
                case .listening(let port): return .success(port)
                case .failed(let error): return .failure(error)
                }
            }
            if let result { continuation.resume(with: result.mapError { $0 as any Error }) }
        }
    }

    private func resolve(with final: State) {
        let waiters: [CheckedContinuation<Int, any Error>] = state.withLockedValue { state in
            guard case .waiting(let waiters) = state else {
                if case .listening = state, case .failed = final { state = final }
                return []
            }
            state = final
            return waiters
        }
        for waiter in waiters {
            switch final {
            case .listening(let port): waiter.resume(returning: port)
            case .failed(let error): waiter.resume(throwing: error)
            case .waiting: break
            }
        }
    }
}

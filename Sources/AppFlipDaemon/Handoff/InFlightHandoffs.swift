import NIOConcurrencyHelpers
import NIOCore

/// Counts top-level handoffs in flight, so that a stopping daemon can wait for them to finish.
final class InFlightHandoffs: Sendable {
    private struct State {
        var count = 0
        var isDraining = false
        var drained: [EventLoopPromise<Void>] = []
    }

    private let state = NIOLockedValueBox(State())

    var count: Int { state.withLockedValue { $0.count } }

    /// Takes one slot, or returns false when the daemon is stopping.
    func enter() -> Bool {
        state.withLockedValue { state in
            if state.isDraining { return false }
            state.count += 1
            return true
        }
    }

    func leave() {
        let done: [EventLoopPromise<Void>] = state.withLockedValue { state in
            state.count -= 1
            guard state.isDraining, state.count == 0 else { return [] }
            defer { state.drained = [] }
            return state.drained
        }
        done.forEach { $0.succeed() }
    }

    /// Refuses new handoffs from now on (`shutting_down`).
    func stopAccepting() {
        state.withLockedValue { $0.isDraining = true }
    }

    /// Refuses new handoffs and completes once the last one in flight has finished.
    func drain(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        state.withLockedValue { state in
            state.isDraining = true
            if state.count == 0 { return eventLoop.makeSucceededVoidFuture() }
            let promise = eventLoop.makePromise(of: Void.self)
            state.drained.append(promise)
            return promise.futureResult
        }
    }
}

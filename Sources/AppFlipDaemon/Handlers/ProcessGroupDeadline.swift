import Glibc
import NIOConcurrencyHelpers

/// A time limit on a program the daemon runs in a process group of its own (an `exec` handler, the artifact
/// inspector): at the limit the whole group is killed with SIGKILL, so that what the program started dies with
/// it, and the run counts as timed out even if it then exits.
enum ProcessGroupDeadline {
    /// The running program's process group, and whether the limit killed it.
    private struct Watch {
        var processGroup: pid_t?
        var timedOut = false
    }

    /// Runs `body`, which starts the program and hands its process group to `started`, within `limit`.
    /// - Returns: what `body` returned, or nil when the limit was reached first.
    static func run<Result: Sendable>(
        within limit: Duration,
        _ body: @escaping @Sendable (_ started: @escaping @Sendable (pid_t) -> Void) async throws -> Result
    ) async throws -> Result? {
        let watch = NIOLockedValueBox(Watch())
        let finished = try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await body { processGroup in watch.withLockedValue { $0.processGroup = processGroup } } }
            group.addTask {
                // The limit covers the whole run, including a program that closed its output and lingers.
                try? await Task.sleep(for: limit)
                guard !Task.isCancelled else { return nil }
                watch.withLockedValue { watch in
                    watch.timedOut = true
                    if let processGroup = watch.processGroup { kill(-processGroup, SIGKILL) }
                }
                return nil
            }
            var finished: Result?
            while let next = try await group.next() {
                if let next {
                    finished = next
                    group.cancelAll()
                }
            }
            return finished
        }
        return watch.withLockedValue(\.timedOut) ? nil : finished
    }
}

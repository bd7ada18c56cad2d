import Foundation

extension Process {
    /// Waits until the process has exited or `limit` has passed, and says whether it exited.
    ///
    /// It sleeps as a task instead of blocking its thread: a test blocked in `usleep` or `waitUntilExit`
    /// holds one of the cooperative pool's threads (two on this machine), and while two tests do, every other
    /// test's embedded OAuth server, which answers in tasks, stalls until its client's deadline passes. When
    /// the task is cancelled it stops waiting early.
    func exit(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning && ContinuousClock.now < deadline && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !isRunning
    }

    /// Runs the process to its exit, at most `limit`; past it the process is stopped and `failure` thrown.
    func runToExit(within limit: Duration, failure: @autoclosure () -> String) async throws {
        try run()
        guard await exit(within: limit) else {
            await DjangoOAuthServer.stop(self)
            throw DjangoFixtureError(failure())
        }
    }
}

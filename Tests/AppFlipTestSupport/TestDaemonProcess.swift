import AppFlipClient
public import AppFlipTesting
import Glibc

/// The built `appflipd` executable run as a child process, as systemd or a user would run it, for what only
/// a real process shows: signals, exit status, start-up errors.
public enum TestDaemonProcess {
    /// `appflipd` beside the test executable (``TestCommand/path(of:)``).
    public static var executable: String { TestCommand.path(of: "appflipd") }

    /// Runs `appflipd --config FILE` for `daemon`, waits until it answers on its socket, runs `body`, then
    /// stops it (``TestCommandRunner/whileRunning(_:_:environment:_:)``: SIGTERM, SIGKILL 10 s later).
    ///
    /// - Parameter environment: variables set for the daemon on top of the test's own, such as a
    ///   `NOTIFY_SOCKET` the test listens on.
    public static func run<Result: Sendable>(
        _ daemon: TestDaemon,
        extraArguments: [String] = [],
        environment: [String: String] = [:],
        _ body: @Sendable (_ pid: Int32) async throws -> Result
    ) async throws -> (result: Result, exit: TestCommand.Outcome) {
        try await TestCommandRunner.whileRunning(
            executable,
            ["--config", daemon.configurationFile] + extraArguments,
            environment: environment
        ) { pid in
            try await waitUntilAnswering(daemon.socketPath, pid: pid)
            return try await body(pid)
        }
    }

    /// Runs `appflipd` with `arguments` to completion, for start-up failures.
    public static func runToCompletion(arguments: [String]) async throws -> TestCommand.Outcome {
        try await TestCommandRunner.run(executable, arguments)
    }

    /// What ``run(_:extraArguments:environment:_:)`` throws when the daemon never answers.
    public struct NeverAnswered: Error, CustomStringConvertible {
        public var description: String
    }

    private static func waitUntilAnswering(_ socketPath: String, pid: Int32) async throws {
        do {
            try await waitUntil("appflipd (pid \(pid)) answering on \(socketPath)") {
                guard !TestCommandRunner.hasExited(pid) else {
                    throw NeverAnswered(description: "appflipd (pid \(pid)) exited before answering on \(socketPath)")
                }
                guard let connection = try? await AppFlipConnection.connect(to: socketPath, client: "readiness-probe") else { return false }
                await connection.close()
                return true
            }
        } catch let timeout as WaitTimeout {
            throw NeverAnswered(description: timeout.description)
        }
    }
}

import AppFlipClient
import AppFlipDaemon
import Glibc
import Subprocess
import SystemPackage

/// The built `appflipd` executable run as a child process, as systemd or a user would run it.
public enum TestDaemonProcess {
    /// `$APPFLIPD_PATH`, or `appflipd` next to the running test executable (`.build/debug/`).
    public static var executable: String {
        if let path = getenv("APPFLIPD_PATH") { return String(cString: path) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let me = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        // The test bundle is `.build/debug/appflipdPackageTests.xctest`; the executable sits beside it.
        return directory.hasSuffix(".xctest")
            ? directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/appflipd"
            : directory + "/appflipd"
    }

    /// Runs `appflipd --config FILE` for `daemon`, waits until it answers on its socket, runs `body`, then
    /// sends SIGTERM and waits for it to exit.
    ///
    /// - Parameter environment: variables set for the daemon on top of the test's own, such as a
    ///   `NOTIFY_SOCKET` the test listens on.
    public static func run<Result: Sendable>(
        _ daemon: TestDaemon,
        extraArguments: [String] = [],
        environment: [String: String] = [:],
        _ body: @Sendable (_ pid: Int32) async throws -> Result
    ) async throws -> (result: Result, exit: DaemonExit) {
        var overrides: [Environment.Key: String?] = [:]
        for (name, value) in environment {
            guard let key = Environment.Key(rawValue: name) else { continue }
            overrides[key] = value
        }
        let outcome = try await Subprocess.run(
            .path(.init(executable)),
            arguments: Arguments(["--config", daemon.configurationFile] + extraArguments),
            environment: .inherit.updating(overrides),
            input: .none,
            output: .discarded,
            error: .string(limit: 1 << 20)
        ) { execution in
            let pid = execution.processIdentifier.value
            do {
                try await waitUntilAnswering(daemon.socketPath, pid: pid)
                let result = try await body(pid)
                try? execution.send(signal: .terminate)
                return result
            } catch {
                try? execution.send(signal: .kill)
                throw error
            }
        }
        return (outcome.closureResult, exit(outcome.terminationStatus, outcome.standardError))
    }

    /// Runs `appflipd` with `arguments` to completion, for start-up failures.
    public static func runToCompletion(arguments: [String]) async throws -> DaemonExit {
        let outcome = try await Subprocess.run(
            .path(.init(executable)),
            arguments: Arguments(arguments),
            input: .none,
            output: .discarded,
            error: .string(limit: 1 << 20)
        )
        return exit(outcome.terminationStatus, outcome.standardError)
    }

    private static func exit(_ status: TerminationStatus, _ standardError: String) -> DaemonExit {
        switch status {
        case .exited(let code): DaemonExit(status: code, signal: nil, standardError: standardError)
        case .signaled(let signal): DaemonExit(status: nil, signal: signal, standardError: standardError)
        }
    }

    struct NeverAnswered: Error, CustomStringConvertible {
        var description: String
    }

    private static func waitUntilAnswering(_ socketPath: String, pid: Int32) async throws {
        for _ in 0..<600 {
            if let connection = try? await AppFlipConnection.connect(to: socketPath, client: "readiness-probe") {
                await connection.close()
                return
            }
            guard kill(pid, 0) == 0 else { throw NeverAnswered(description: "appflipd (pid \(pid)) exited before answering on \(socketPath)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NeverAnswered(description: "appflipd (pid \(pid)) did not answer on \(socketPath) within 30 s")
    }
}

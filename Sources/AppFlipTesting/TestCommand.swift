import Glibc
import Subprocess
import SystemPackage

/// Runs a built executable of this package (`appflip`, `appflipd`) to completion, for command-line tests.
public enum TestCommand {
    /// What a command did: its exit status and everything it wrote.
    public struct Outcome: Sendable {
        /// The exit status; `nil` when a signal killed it.
        public var status: Int32?
        /// Everything the command wrote to stdout.
        public var standardOutput: String
        /// Everything the command wrote to stderr.
        public var standardError: String
    }

    /// The path of `name` beside `appflipd` (`.build/debug/`), or `$APPFLIP_BIN_DIR/name`.
    public static func path(of name: String) -> String {
        if let directory = getenv("APPFLIP_BIN_DIR") { return String(cString: directory) + "/" + name }
        let daemon = TestDaemonProcess.executable
        return String(daemon.dropLast("appflipd".count)) + name
    }

    /// Runs this package's executable `name`.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await TestCommandRunner.run(path(of: name), arguments, environment: environment)
    }
}

/// Runs any executable to completion, capturing its output.
public enum TestCommandRunner {
    /// Runs `executable` with `arguments`, its environment updated with `environment`, and waits for it to exit.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> TestCommand.Outcome {
        var updates: [Environment.Key: String?] = [:]
        for (key, value) in environment { updates[Environment.Key(stringLiteral: key)] = value }
        let result = try await Subprocess.run(
            .path(.init(executable)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(updates),
            input: .none,
            output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 20)
        )
        let status: Int32? = if case .exited(let code) = result.terminationStatus { code } else { nil }
        return TestCommand.Outcome(status: status, standardOutput: result.standardOutput, standardError: result.standardError)
    }
}

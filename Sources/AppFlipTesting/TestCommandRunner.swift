import Glibc
import Subprocess
import SystemPackage

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

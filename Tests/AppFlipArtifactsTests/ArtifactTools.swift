import AppFlipTestSupport
import Foundation

/// The tools the artifact tests build their artifacts with and hold the readers against (aapt, apksigner,
/// keytool, openssl, llvm-objdump, file, Info-ZIP, python3), found on PATH or among the Swift toolchain's LLVM
/// tools, and run through the tests' one program runner.
enum ArtifactTools {
    /// What a tool did: its exit status, and what it wrote to stdout and then stderr.
    struct Run: Sendable {
        let status: Int32?
        let standardOutput: String
        let output: String
    }

    /// Runs `tool` to completion.
    static func run(_ tool: String, _ arguments: [String]) async throws -> Run {
        guard let executable = find(tool) else { throw Failure(message: "\(tool) is not installed (scripts/setup installs the tools)") }
        let outcome = try await TestCommandRunner.run(executable, arguments, within: .seconds(600))
        return Run(status: outcome.status, standardOutput: outcome.standardOutput, output: outcome.standardOutput + outcome.standardError)
    }

    /// Runs `tool` and returns its standard output; throws with what it wrote when it fails.
    @discardableResult
    static func output(_ tool: String, _ arguments: [String]) async throws -> String {
        let run = try await run(tool, arguments)
        guard run.status == 0 else { throw Failure(message: "\(tool) \(arguments.joined(separator: " ")) failed: \(run.output)") }
        return run.standardOutput
    }

    /// Whether `tool` can be run.
    static func has(_ tool: String) -> Bool { find(tool) != nil }

    private static func find(_ tool: String) -> String? {
        if tool.hasPrefix("/") { return tool }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        return directories.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

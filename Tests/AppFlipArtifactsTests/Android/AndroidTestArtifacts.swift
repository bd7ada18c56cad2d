import Foundation
import Testing

/// The Android artifacts `scripts/android/make-test-artifacts` builds with Google's tools from Debian, into
/// `.build/android-test-artifacts` (rebuilt only when the scripts change), once per test run.
enum AndroidTestArtifacts {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder of artifacts, built on first use.
    static let directory: Result<String, BuildFailure> = {
        let out = root.appendingPathComponent(".build/android-test-artifacts").path
        let run = Tool.run(root.appendingPathComponent("scripts/android/make-test-artifacts").path, [out])
        guard run.status == 0 else { return .failure(BuildFailure(output: run.output)) }
        return .success(out)
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        let output: String
        var description: String { "scripts/android/make-test-artifacts failed (scripts/setup installs its tools):\n\(output)" }
    }

    /// The path of artifact `name`.
    static func path(_ name: String) throws -> String {
        try directory.get() + "/" + name
    }
}

/// Runs a tool to completion, its output and error merged.
enum Tool {
    struct Run {
        let status: Int32
        let output: String
    }

    static func run(_ executable: String, _ arguments: [String]) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return Run(status: -1, output: "\(executable): \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }
}

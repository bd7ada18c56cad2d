import AppFlipTesting
import Foundation

/// The iOS artifacts that Tests/AppleArtifacts/make_ios_artifacts.py builds (profiles of every kind, property
/// lists, thin and universal Mach-O executables with signatures, an .ipa and hostile archives), built once per
/// test process into a temporary folder; and the tools that read them independently.
enum AppleArtifactFixtures {
    static let repository = #filePath.components(separatedBy: "/Tests/").first!
    static let script = repository + "/Tests/AppleArtifacts/make_ios_artifacts.py"

    private static let built = Task { try await build() }

    /// The folder holding the artifacts.
    static func folder() async throws -> String { try await built.value }

    /// The path of artifact `name`.
    static func path(_ name: String) async throws -> String { try await folder() + "/" + name }

    /// The bytes of artifact `name`.
    static func bytes(_ name: String) async throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try await path(name))))
    }

    private static func build() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-ios-artifacts-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        _ = try await run("python3", [script, folder])
        return folder
    }

    /// Runs `tool` (found on PATH, or among the Swift toolchain's LLVM tools) and returns its standard output;
    /// throws with its standard error when it fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        guard let executable = find(tool) else { throw Failure(message: "\(tool) is not installed") }
        let outcome = try await TestCommandRunner.run(executable, arguments)
        guard outcome.status == 0 else { throw Failure(message: "\(tool) \(arguments.joined(separator: " ")) failed: \(outcome.standardError)") }
        return outcome.standardOutput
    }

    /// Whether `tool` can be run.
    static func has(_ tool: String) -> Bool { find(tool) != nil }

    private static func find(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        return directories.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

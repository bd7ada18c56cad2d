import AppFlipCore
import Foundation
import Testing

@testable import AppFlipCore

/// The built `appflip` executable, found next to the test bundle (`swift build` puts every product of the
/// package in the same directory), or at `$APPFLIP_EXECUTABLE`.
enum AppFlipExecutable {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static var url: URL {
        if let path = ProcessInfo.processInfo.environment["APPFLIP_EXECUTABLE"] { return URL(fileURLWithPath: path) }
        return Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("appflip")
    }

    /// Runs `appflip` with `arguments`. Input and output go through files, so nothing can dead-lock on a
    /// full pipe, and the process is killed if it has not finished within a minute. The test waits as a task,
    /// not in `usleep`: a blocked thread is one of the cooperative pool's two on this machine, which the
    /// tests of the daemon running beside these need.
    static func run(_ arguments: [String], input: String = "") async throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ExecutableMissing(path: url.path)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["stdin", "stdout", "stderr"].map { directory.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        try Data().write(to: files[1])
        try Data().write(to: files[2])

        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: files[0])
        process.standardOutput = try FileHandle(forWritingTo: files[1])
        process.standardError = try FileHandle(forWritingTo: files[2])
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { process.terminate() }
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: files[2]), as: UTF8.self)
        )
    }

    struct ExecutableMissing: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: build it first with `swift build --product appflip`" }
    }
}

import AppFlipTestSupport
import Foundation

/// A fixture's Python server on 127.0.0.1: started with `--state DIR --port-file FILE` (and its own
/// arguments), it listens on a port the kernel picks and writes the port to the file; the test's body runs
/// against it, then it is stopped by PID (``TestCommandRunner/whileRunning(_:_:environment:_:)``). Each
/// script also exits by itself after its `--lifetime`, in case this process dies first.
enum PythonServer {
    /// Runs `script` of the fixture folder `fixture` with `python`, waits until it listens, runs `body` with
    /// its port, then stops it. What the server wrote to stderr is in the error when anything fails.
    static func run(
        python: String,
        fixture: String,
        script: String,
        arguments: [String],
        _ body: @Sendable (_ port: Int) async throws -> Void
    ) async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-\(fixture)-\(UUID())")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let portFile = state.appendingPathComponent("port").path
        do {
            _ = try await TestCommandRunner.whileRunning(
                python,
                [ThirdPartyFixture.folder(fixture) + "/" + script, "--state", state.path, "--port-file", portFile] + arguments
            ) { pid in
                try await body(try await listeningPort(pid: pid, portFile: portFile, name: script))
            }
        } catch let failure as TestCommandRunner.BodyFailed {
            throw FixtureError("\(script): \(failure)")
        }
    }

    /// The port the server writes to `portFile` once it listens. Generous: a Django start takes seconds, and
    /// the tests run in parallel on two loaded cores.
    private static func listeningPort(pid: Int32, portFile: String, name: String) async throws -> Int {
        var port: Int?
        try await waitUntil("\(name) listening", within: .seconds(90)) {
            guard !TestCommandRunner.hasExited(pid) else { throw FixtureError("\(name) exited before it listened") }
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return port != nil
        }
        return port!
    }
}

import Glibc
import Subprocess
import SystemPackage

/// Runs this package's built executables (`appflip`, `appflipd`) for the command-line tests.
public enum TestCommand {
    /// What a program did: its exit status and everything it wrote.
    public struct Outcome: Sendable {
        /// The exit status; `nil` when a signal killed it.
        public var status: Int32?
        /// The signal that killed it, when one did.
        public var signal: Int32?
        /// Everything the program wrote to stdout.
        public var standardOutput: String
        /// Everything the program wrote to stderr.
        public var standardError: String
    }

    /// The folder of this package's built executables, the one way the tests find them: `$APPFLIP_BIN_DIR`,
    /// or the folder of the running test executable, where `swift build` puts every product of the package
    /// (`.build/debug/`, or the sanitizers' scratch folder).
    public static let binDirectory: String = {
        if let directory = getenv("APPFLIP_BIN_DIR") { return String(cString: directory) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }()

    /// The path of this package's executable `name`.
    public static func path(of name: String) -> String {
        binDirectory + "/" + name
    }

    /// Runs this package's executable `name` to completion (``TestCommandRunner/run(_:_:input:environment:within:)``).
    public static func run(
        _ name: String,
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String] = [:],
        within limit: Duration = .seconds(120)
    ) async throws -> Outcome {
        try await TestCommandRunner.run(path(of: name), arguments, input: input, environment: environment, within: limit)
    }
}

/// The tests' one way of running a program: to completion for its output, or for the length of a test's body
/// (a daemon, a fixture's server). Every wait is bounded and sleeps as a task (swift-subprocess watches the
/// child through its pidfd), never blocking one of the cooperative pool's threads.
public enum TestCommandRunner {
    /// Runs `executable` with `arguments`, `input` on its stdin and the test's environment updated with
    /// `environment` (systemd's variables only when given there), and waits for it to exit. Past `limit` it is
    /// killed and ``TimedOut`` thrown.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String] = [:],
        within limit: Duration = .seconds(120)
    ) async throws -> TestCommand.Outcome {
        let configuration = Configuration(
            executable: .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(updates(environment))
        )
        return try await withThrowingTaskGroup(of: TestCommand.Outcome?.self) { group in
            group.addTask {
                let result = try await Subprocess.run(
                    configuration,
                    input: .string(input ?? ""),
                    output: .string(limit: 16 << 20),
                    error: .string(limit: 16 << 20)
                )
                return TestCommand.Outcome(
                    status: result.terminationStatus.exitCode,
                    signal: result.terminationStatus.signal,
                    standardOutput: result.standardOutput,
                    standardError: result.standardError
                )
            }
            group.addTask {
                // Cancelling the run, below, kills the program (swift-subprocess's teardown).
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next()!
            group.cancelAll()
            guard let outcome = first else { throw TimedOut(description: "\(executable) did not finish within \(limit)") }
            return outcome
        }
    }

    /// Starts `executable` with `arguments`, runs `body` with its PID, then stops it: SIGTERM, and SIGKILL if
    /// it has not exited 10 s later; returns what `body` returned and how the program ended (its output: the
    /// last 1 MiB of each). If `body` throws, the program is stopped the same way and ``BodyFailed``, with
    /// what the program wrote to stderr, is thrown.
    public static func whileRunning<Result: Sendable>(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        _ body: @Sendable (_ pid: Int32) async throws -> Result
    ) async throws -> (result: Result, exit: TestCommand.Outcome) {
        let output = try OutputFile()
        let errors = try OutputFile()
        defer {
            output.close()
            errors.close()
        }
        var options = PlatformOptions()
        options.teardownSequence = stop
        let outcome = try await Subprocess.run(
            .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(updates(environment)),
            platformOptions: options,
            input: .none,
            output: .fileDescriptor(output.descriptor, closeAfterSpawningProcess: false),
            error: .fileDescriptor(errors.descriptor, closeAfterSpawningProcess: false)
        ) { execution -> Swift.Result<Result, any Error> in
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body(execution.processIdentifier.value))
            } catch {
                result = .failure(error)
            }
            await execution.teardown(using: stop)
            return result
        }
        let status = outcome.terminationStatus
        let exit = TestCommand.Outcome(
            status: status.exitCode,
            signal: status.signal,
            standardOutput: output.read(),
            standardError: errors.read()
        )
        switch outcome.closureResult {
        case .success(let result): return (result, exit)
        case .failure(let error): throw BodyFailed(error: error, standardError: exit.standardError)
        }
    }

    /// Whether the child `pid`, started by ``whileRunning(_:_:environment:_:)``, has exited: it is left to be
    /// reaped (`WNOWAIT`), while `kill(pid, 0)` would still find its zombie.
    public static func hasExited(_ pid: Int32) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// What ``run(_:_:input:environment:within:)`` throws when the program outlives its limit.
    public struct TimedOut: Error, CustomStringConvertible {
        public var description: String
    }

    /// What ``whileRunning(_:_:environment:_:)`` throws when the body failed: its error, and what the
    /// program wrote to stderr, which usually says why.
    public struct BodyFailed: Error, CustomStringConvertible {
        public var error: any Error
        public var standardError: String

        public var description: String {
            standardError.isEmpty ? "\(error)" : "\(error)\n\(standardError.suffix(4000))"
        }
    }

    /// SIGTERM, then SIGKILL 10 s later: how every program run for a body is stopped.
    private static let stop: [TeardownStep] = [.gracefulShutDown(allowedDurationToNextStep: .seconds(10))]

    /// The test's environment for a child, without systemd's variables unless `environment` gives them: a
    /// test that sets them in this process (SystemdTests' `EnvironmentTests`) must not have every daemon
    /// started beside it notify its socket.
    private static func updates(_ environment: [String: String]) -> [Environment.Key: String?] {
        var updates: [Environment.Key: String?] = [:]
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] {
            updates[Environment.Key(stringLiteral: key)] = String?.none
        }
        for (key, value) in environment { updates[Environment.Key(stringLiteral: key)] = value }
        return updates
    }
}

extension TerminationStatus {
    fileprivate var exitCode: Int32? {
        if case .exited(let code) = self { code } else { nil }
    }

    fileprivate var signal: Int32? {
        if case .signaled(let signal) = self { signal } else { nil }
    }
}

/// A long-lived program's stdout or stderr: an unlinked temporary file, so that a chatty server never blocks
/// on a full pipe, read back once it has exited.
private struct OutputFile {
    let descriptor: FileDescriptor

    init() throws {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/appflip-output-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Errno(rawValue: errno) }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        descriptor = FileDescriptor(rawValue: fd)
    }

    /// The last 1 MiB written.
    func read() -> String {
        let size = (try? descriptor.seek(offset: 0, from: .end)) ?? 0
        let start = max(0, size - (1 << 20))
        var bytes = [UInt8](repeating: 0, count: Int(size - start))
        let count = (try? bytes.withUnsafeMutableBytes { try descriptor.read(fromAbsoluteOffset: start, into: $0) }) ?? 0
        return String(decoding: bytes.prefix(count), as: UTF8.self)
    }

    func close() {
        try? descriptor.close()
    }
}

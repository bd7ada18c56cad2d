import AppFlipTestSupport
import Glibc
import Testing

/// The tests' one way of running a program: its input and output, its time limit, and its stop.
@Suite struct TestCommandRunnerTests {
    @Test func aProgramGetsItsInputAndGivesItsOutputAndStatus() async throws {
        let outcome = try await TestCommandRunner.run("/bin/sh", ["-c", "cat; echo to-stderr >&2; exit 3"], input: "to-stdin\n")
        #expect(outcome.status == 3)
        #expect(outcome.signal == nil)
        #expect(outcome.standardOutput == "to-stdin\n")
        #expect(outcome.standardError == "to-stderr\n")
    }

    @Test func aProgramPastItsLimitIsKilled() async throws {
        let start = ContinuousClock.now
        await #expect(throws: TestCommandRunner.TimedOut.self) {
            try await TestCommandRunner.run("/bin/sleep", ["60"], within: .milliseconds(300))
        }
        // A bound on a hang, not a speed: the run ended long before the program would have.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test func aProgramRunForABodyIsStoppedAfterIt() async throws {
        let marker = "/tmp/appflip-runner-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(marker) }
        let (pid, exit) = try await TestCommandRunner.whileRunning("/bin/sh", ["-c", "echo started; : > \(marker); exec sleep 60"]) { pid in
            try await waitUntil("the program started") { access(marker, F_OK) == 0 }
            #expect(!TestCommandRunner.hasExited(pid))
            return pid
        }
        #expect(exit.signal == SIGTERM)
        #expect(exit.standardOutput == "started\n")
        #expect(kill(pid, 0) != 0, "the program outlived its body")
    }

    @Test func aFailingBodyStopsTheProgramAndSaysWhatItWrote() async throws {
        struct Failure: Error {}
        let error = await #expect(throws: TestCommandRunner.BodyFailed.self) {
            _ = try await TestCommandRunner.whileRunning("/bin/sh", ["-c", "echo why >&2; exec sleep 60"]) { _ in
                try await waitUntil("nothing", within: .milliseconds(200)) { false }
            }
        }
        #expect(error?.error is WaitTimeout)
        #expect(error?.standardError == "why\n")
    }

    @Test func anExitedChildIsSeenBeforeItIsReaped() async throws {
        _ = try await TestCommandRunner.whileRunning("/bin/true", []) { pid in
            try await waitUntil("/bin/true exited") { TestCommandRunner.hasExited(pid) }
            // Its zombie still answers kill(pid, 0): only waitid says it is gone.
            #expect(kill(pid, 0) == 0)
        }
    }
}

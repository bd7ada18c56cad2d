import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipOAuth
import AppFlipTesting
import Hummingbird
import Logging
import NIOCore
import Testing

/// `FlipRunner`'s unlink (steps 6 and 7) against the embedded server, and against a revocation endpoint
/// that answers 200 but revokes nothing.
@Suite struct UnlinkTests {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func runner(daemon: TestDaemon, unlink: FlipRunner.Unlink) async throws -> FlipRunner {
        var runner = try await FlipRunnerTests.runner(state: "unlink", daemon: daemon)
        runner.unlink = unlink
        return runner
    }

    static func run(_ runner: FlipRunner, daemon: TestDaemon) async throws -> FlipReport {
        let connection = try await daemon.connect()
        let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
        let report = await runner.run(connection: connection, google: google, events: nil, httpClient: daemon.httpClient, logger: Self.noLogs)
        await connection.close()
        return report
    }

    @Test func unlinkRevokesFromTheMetadataAndConfirms() async throws {
        try await TestPartner.run { daemon in
            let base = try await daemon.oauthServer!.baseURL()
            let report = try await Self.run(try await Self.runner(daemon: daemon, unlink: .init(resourceURL: base + "/userinfo")), daemon: daemon)
            #expect(report.exitStatus == 0, "\(report.failure ?? "")")
            #expect(report.steps.map(\.step) == [1, 2, 3, 4, 5, 6, 7])
            #expect(report.steps.allSatisfy { $0.status == .ok })
            #expect(report.unlinked == true)
            let confirmed = try #require(report.steps.last?.detail)
            #expect(confirmed.contains("refresh token: invalid_grant"))
            #expect(confirmed.split(separator: ", ").filter { $0.hasSuffix("HTTP 401") }.count == 2, "both access tokens: \(confirmed)")
        }
    }

    @Test func aRevocationThatRevokesNothingFailsStepSeven() async throws {
        // A partner whose revocation endpoint says 200 and does nothing.
        let router = Router()
        router.post("revoke") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        try await withLoopbackServer(router) { base in
            let fake = base + "/revoke"
            try await TestPartner.run { daemon in
                let base = try await daemon.oauthServer!.baseURL()
                let runner = try await Self.runner(daemon: daemon, unlink: .init(revocationURL: fake, resourceURL: base + "/userinfo"))
                let report = try await Self.run(runner, daemon: daemon)
                #expect(report.exitStatus == 2)
                #expect(report.steps.map(\.status) == [.ok, .ok, .ok, .ok, .ok, .ok, .failed])
                #expect(report.unlinked == false)
                let failure = try #require(report.failure)
                #expect(failure.hasPrefix("step 7"))
                #expect(failure.contains("still refreshes"))
                #expect(failure.contains("still opens"))
            }
        }
    }

    @Test func withoutUnlinkThereAreFiveSteps() async throws {
        try await TestPartner.run { daemon in
            var runner = try await FlipRunnerTests.runner(state: "five", daemon: daemon)
            runner.clientID = "someone-else"
            let report = try await Self.run(runner, daemon: daemon)
            #expect(report.steps.map(\.step) == [1, 2, 3, 4, 5])
            #expect(report.unlinked == nil)
            runner.unlink = .init()
            let unlinking = try await Self.run(runner, daemon: daemon)
            #expect(unlinking.steps.map(\.step) == [1, 2, 3, 4, 5, 6, 7])
            #expect(unlinking.steps.suffix(2).allSatisfy { $0.status == .skipped })
        }
    }
}

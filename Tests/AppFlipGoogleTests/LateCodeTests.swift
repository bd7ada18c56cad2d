import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipTesting
import Hummingbird
import Logging
import Synchronization
import Testing

/// A partner whose authorization endpoint answers correctly, but only after the `appflip` handler's time
/// limit: the flip ends with `timeout` at the limit, and the code that arrives later never reaches the Google
/// app. Two layers keep it out, either enough alone: the handler cancels its work and checks for
/// cancellation before opening, and the daemon opens nothing for a handoff already answered.
@Suite struct LateCodeTests {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test(.timeLimit(.minutes(2))) func aCodeThatComesAfterTheTimeLimitIsNeverOpened() async throws {
        // The first request (the handler sends its own state, not the flip's) is answered only once the test
        // has seen its flip time out; any later one at once.
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let (lateAnswers, lateAnswer) = AsyncStream.makeStream(of: Void.self)
        let requests = Mutex(0)
        let router = Router()
        router.get("authorize") { request, _ in
            let isFirst = requests.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            if isFirst {
                for await _ in release { break }
                lateAnswer.yield()
            }
            let query = request.uri.queryParameters
            let state = PercentEncoding.encodeStrictly(String(query["state"] ?? ""))
            let code = isFirst ? "LATE-CODE" : "ON-TIME-CODE"
            return Response(status: .found, headers: [.location: String(query["redirect_uri"] ?? "") + "?code=\(code)&state=" + state])
        }
        try await withLoopbackServer(router) { base in
            // Whatever happens, the held request ends, so that the server can stop.
            defer { releasing.finish() }
            let handler = TestPartner.handler(extra: [
                "authorization": .object(["remote": .object(["authorizeURL": .string(base + "/authorize")])]),
                // Long enough for the second flip on a loaded machine (under a sanitizer too); the first waits it out.
                "timeoutSeconds": .number(5),
            ])
            try await TestPartner.run(handler: handler) { daemon in
                let connection = try await daemon.connect()
                let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
                var late = try await FlipRunnerTests.runner(state: "late", daemon: daemon)
                late.tokenEndpoint = nil
                let report = await late.run(connection: connection, google: google, events: nil, httpClient: nil, logger: Self.noLogs)
                #expect(report.exitStatus == 1)
                #expect(report.failure?.contains("did not answer within") == true, "\(report.failure ?? "")")
                releasing.finish()
                var answered = lateAnswers.makeAsyncIterator()
                _ = await answered.next()
                // A later flip through the same endpoint, handler, daemon and Google app, asked for after the late
                // code was answered: had the handler opened the late code, it would reach the Google app first.
                var onTime = try await FlipRunnerTests.runner(state: "on-time", daemon: daemon)
                onTime.tokenEndpoint = nil
                let second = await onTime.run(connection: connection, google: google, events: nil, httpClient: nil, logger: Self.noLogs)
                #expect(second.exitStatus == 0, "\(second.failure ?? "")")
                #expect(second.result == "code")
                #expect(google.takeAll().isEmpty)
                await connection.close()
            }
        }
    }
}

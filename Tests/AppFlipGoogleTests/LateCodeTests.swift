import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipTesting
import Hummingbird
import Logging
import Testing

/// A partner whose authorization endpoint answers correctly, but only after the `appflip` handler's time
/// limit: the flip ends with `timeout` at the limit, and the code that arrives later never reaches the Google
/// app. Two layers keep it out, either enough alone: the handler cancels its work and checks for
/// cancellation before opening, and the daemon opens nothing for a handoff already answered.
@Suite struct LateCodeTests {
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aCodeThatComesAfterTheTimeLimitIsNeverOpened() async throws {
        let router = Router()
        router.get("authorize") { request, _ in
            try await Task.sleep(for: .seconds(1))
            let query = request.uri.queryParameters
            let state = PercentEncoding.encodeStrictly(String(query["state"] ?? ""))
            let location = String(query["redirect_uri"] ?? "") + "?code=LATE-CODE&state=" + state
            return Response(status: .found, headers: [.location: location])
        }
        try await withLoopbackServer(router) { base in
            let authorizeURL = base + "/authorize"
            let handler = TestPartner.handler(extra: [
                "authorization": .object(["remote": .object(["authorizeURL": .string(authorizeURL)])]),
                "timeoutSeconds": .number(0.2),
            ])
            try await TestPartner.run(handler: handler) { daemon in
                let connection = try await daemon.connect()
                let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
                var runner = try await FlipRunnerTests.runner(state: "late", daemon: daemon)
                runner.tokenEndpoint = nil
                let report = await runner.run(connection: connection, google: google, events: nil, httpClient: nil, logger: Self.noLogs)
                #expect(report.exitStatus == 1)
                #expect(report.failure?.contains("did not answer within") == true, "\(report.failure ?? "")")
                // Past the endpoint's answer: had the handler opened the late code, it would be here by now.
                try await Task.sleep(for: .seconds(2))
                #expect(google.takeAll().isEmpty)
                await connection.close()
            }
        }
    }
}

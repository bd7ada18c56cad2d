import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipOAuth
import AppFlipTesting
import Logging
import Testing

/// The Google side as a library: a flip played by ``FlipRunner`` against the built-in partner and the
/// embedded OAuth server, in appflipd's composition.
@Suite struct FlipRunnerTests {
    static let redirect = AppFlipRedirectURI.all.first { $0.bundleID == "com.google.OPA" && $0.environment == .production }!
    static let noLogs = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func runner(state: String, daemon: TestDaemon) async throws -> FlipRunner {
        FlipRunner(
            partnerLink: try RawURL(TestPartner.link),
            clientID: TestPartner.clientID,
            scopes: ["profile"],
            state: state,
            redirectURI: redirect,
            tokenEndpoint: TokenEndpoint(url: try await daemon.oauthServer!.baseURL() + "/token", clientSecret: TestPartner.clientSecret),
            timeout: .seconds(30)
        )
    }

    @Test func aFlipLinksExchangesAndRefreshes() async throws {
        try await TestPartner.run { daemon in
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
            let report = try await Self.runner(state: "a+b &c=%41 😀", daemon: daemon)
                .run(connection: connection, google: google, events: nil, httpClient: daemon.httpClient, logger: Self.noLogs)
            await connection.close()
            #expect(report.exitStatus == 0, "\(report.failure ?? "")")
            #expect(report.result == "code")
            #expect(report.steps.map(\.status) == Array(repeating: .ok, count: 5))
            #expect(report.tokens?.violations == [])
            #expect(report.refreshed != nil)
        }
    }

    @Test func concurrentFlipsOnOneGoogleAppEachTakeTheirOwnResult() async throws {
        try await TestPartner.run { daemon in
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
            let runners = try await (0..<8).asyncMap { try await Self.runner(state: "state \($0)/+", daemon: daemon) }
            let reports = await withTaskGroup(of: FlipReport.self) { group in
                for var runner in runners {
                    runner.refreshes = false
                    group.addTask {
                        await runner.run(connection: connection, google: google, events: nil, httpClient: daemon.httpClient, logger: Self.noLogs)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            await connection.close()
            #expect(reports.count == 8)
            #expect(reports.allSatisfy { $0.exitStatus == 0 && $0.violations.isEmpty })
            #expect(google.received.isEmpty)
        }
    }

    @Test func aDeclinedClientIDStopsAtStepTwo() async throws {
        try await TestPartner.run { daemon in
            let connection = try await daemon.connect()
            let google = try await GoogleApp.register(on: connection, bundleID: "com.google.OPA")
            var runner = try await Self.runner(state: "s", daemon: daemon)
            runner.clientID = "someone-else"
            let report = await runner.run(connection: connection, google: google, events: nil, httpClient: daemon.httpClient, logger: Self.noLogs)
            await connection.close()
            #expect(report.exitStatus == 1)
            #expect(report.steps.first { $0.step == 2 }?.status == .failed)
        }
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

import AppFlipConfiguration
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AsyncHTTPClient
import Foundation
import Testing

@testable import AppFlipOAuth

/// Steps 3 and 4 per second against the embedded server, over real loopback HTTP. It prints figures and
/// asserts only correctness; it runs only when asked:
///
///     APPFLIP_OAUTH_BENCH=1 swift test --filter EmbeddedServerBenchmark
@Suite(.enabled(if: ProcessInfo.processInfo.environment["APPFLIP_OAUTH_BENCH"] != nil))
struct EmbeddedServerBenchmark {
    static let flowsPerRun = 2000

    @Test("code + token exchange per second at concurrency 1 and 64")
    func flowsPerSecond() async throws {
        try await withEmbeddedServer { server, _ in
            var client = HTTPClient.Configuration.appFlipOAuth()
            client.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: client)
            do {
                let endpoint = try await server.authorizationEndpoint(signedInAs: "alice", httpClient: http, logger: testLogger)
                let tokens = try await server.tokenEndpointClient(clientID: testClient.id, httpClient: http, logger: testLogger)
                var rates: [Int: Double] = [:]
                for concurrency in [1, 64] {
                    let started = ContinuousClock.now
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for worker in 0..<concurrency {
                            group.addTask {
                                for index in stride(from: worker, to: Self.flowsPerRun, by: concurrency) {
                                    let uri = appFlipRedirectURIs[index % 12]
                                    let code = try await endpoint.authorizationCode(
                                        for: AuthorizationRequest(clientID: testClient.id, redirectURI: uri, scopes: [])
                                    )
                                    let response = try await tokens.exchange(code: code, redirectURI: uri)
                                    #expect(response.report.violations.isEmpty)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                    let elapsed = ContinuousClock.now - started
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    rates[concurrency] = Double(Self.flowsPerRun) / seconds
                    print(
                        "embedded OAuth: \(Self.flowsPerRun) flows (authorize + token) at concurrency \(concurrency): \(String(format: "%.0f", rates[concurrency]!)) flows/s"
                    )
                }
                print("embedded OAuth: concurrency 64 / concurrency 1 = \(String(format: "%.2f", rates[64]! / rates[1]!))x")
                try await http.shutdown()
            } catch {
                try await http.shutdown()
                throw error
            }
        }
    }
}

import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import AsyncHTTPClient
import FoundationEssentials
import Testing

/// The hosted association file reaches the audit's record of exchanges (`appflip audit --har`): fetched over
/// real HTTPS on 127.0.0.1 through Apple's CDN path, it is an exchange of the run, answered 200 with the file,
/// and every association check judged on it refers to it.
@Suite struct HostedExchangeRecordTests {
    @Test func theHostedFileIsAnExchangeEveryAssociationCheckRefersTo() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        let report = try await TestHTTPSServer.with(identity: identity, routes: HostedTestFixture.cdnRoutes) { server in
            let auditor = Auditor(
                association: AssociationTarget(
                    source: .hosted(host: "good.example", fetch: fixture.cdnOptions(server)),
                    appID: HostedTestFixture.appID,
                    link: try RawURL("https://good.example/flip/link")
                )
            )
            let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            let report = await auditor.run(httpClient: httpClient)
            try await httpClient.shutdown()
            return report
        }
        let hosted = try #require(report.exchanges.first, "no exchange recorded")
        #expect(report.exchanges.count == 1)
        #expect(hosted.endpoint == .hostedFile)
        #expect(hosted.request.method == "GET" && hosted.request.url.hasSuffix("/a/v1/good.example"), "\(hosted.request.url)")
        #expect(hosted.purpose == "association-file: \(hosted.request.url)")
        let response = try #require(hosted.response)
        #expect(response.status == 200 && response.httpVersion.hasPrefix("HTTP/"), "\(response.httpVersion)")
        #expect(response.body == String(decoding: HostedTestFixture.file, as: UTF8.self))
        #expect(response.bodySize == HostedTestFixture.file.count)
        #expect(response.headers.contains { $0.name.lowercased() == "content-type" && $0.value == "application/json" })

        let judged = report.results.filter { $0.check.target == .associationFile && $0.outcome != .skipped }
        #expect(!judged.isEmpty && judged.allSatisfy { $0.exchanges == [hosted.id] }, "\(judged.map { ($0.check.id, $0.exchanges) })")

        // In the archive: one entry, the file as its content, the association checks its findings.
        let archive = try JSONDecoder().decode(Archive.self, from: Data(HTTPArchive.document(report, startedAt: Date())))
        let entry = try #require(archive.log.entries.first)
        #expect(archive.log.entries.count == 1)
        #expect(entry._appflipExchange == hosted.id && entry._appflipEndpoint == "hosted-file")
        #expect(entry.response.content.text == response.body)
        #expect(Set(entry._appflipFindings) == Set(judged.map(\.check.id)))
    }

    struct Archive: Decodable {
        struct Log: Decodable { var entries: [Entry] }
        struct Entry: Decodable {
            struct Response: Decodable {
                struct Content: Decodable { var text: String? }
                var content: Content
            }
            var response: Response
            var _appflipExchange: Int
            var _appflipEndpoint: String
            var _appflipFindings: [String]
        }
        var log: Log
    }
}

import AppFlipCore
import AppFlipHTTPClient
import Testing

/// The 223 real files served over HTTPS from one server on 127.0.0.1, fetched eight at a time: every valid one
/// fetches and loads, every broken one is refused with the loader's pointer to the JSON error.
@Suite struct HostedRealCorpusTests {
    static func fetch(_ index: Int, with runner: HostedCheckRunner) async -> HostedReport<AASAReportDetails> {
        await runner.run(AASAFileCheck(appID: nil), host: "f\(index).corpus.example")
    }

    @Test func everyValidRealFileFetchesAndLoads() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let files = RealCorpus.shared.files
        // File i is served as the CDN's answer for domain `fi.corpus.example`.
        let served = Dictionary(uniqueKeysWithValues: files.enumerated().map { ("/a/v1/f\($0.offset).corpus.example", $0.element.bytes) })
        let identity = try fixture.authority.serverIdentity(for: ["localhost"])
        let routes: @Sendable (String) -> TestHTTPResponse? = { served[$0].map { TestHTTPResponse.file($0) } }
        try await TestHTTPSServer.with(identity: identity, routes: routes) { server in
            let runner = HostedCheckRunner(options: fixture.cdnOptions(server, timeout: .seconds(30)))
            var outcomes: [Int: HostedReport<AASAReportDetails>] = [:]
            await withTaskGroup(of: (Int, HostedReport<AASAReportDetails>).self) { group in
                var next = 0
                while next < files.count || !group.isEmpty {
                    while next < files.count && next < outcomes.count + 8 {
                        let index = next
                        next += 1
                        group.addTask { (index, await Self.fetch(index, with: runner)) }
                    }
                    if let (index, outcome) = await group.next() { outcomes[index] = outcome }
                }
            }
            var loaded = 0
            var refused = 0
            for (index, file) in files.enumerated() {
                guard let report = outcomes[index], report.couldNotRun == nil else {
                    Issue.record("\(file.name) was not fetched: \(outcomes[index]?.couldNotRun ?? "")")
                    continue
                }
                if let failure = report.failures.first {
                    #expect(failure.rule == "aasa.valid", "\(file.name): \(failure)")
                    #expect(report.details.refusal.map(\.code) == [.invalidJSON], "\(file.name): \(failure)")
                    #expect(failure.evidence.contains("line") && failure.evidence.contains("column"), "\(file.name)")
                    refused += 1
                } else {
                    #expect(report.details.bytes == file.bytes, "\(file.name)")
                    loaded += 1
                }
            }
            print("real AASA files over HTTPS: \(loaded) fetched and loaded, \(refused) refused (not JSON), of \(files.count)")
            #expect(loaded == 213)
            #expect(refused == 10)
        }
    }
}

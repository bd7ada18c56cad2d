import AppFlipCore
import Testing

/// The hosting rules on fetches made up in the test, under each platform's policy: each answer fails exactly
/// its own rule, the rules after it are skipped naming it, and what the platform does not judge is not judged.
@Suite struct HostingVerdictTests {
    static func answer(
        _ status: Int = 200,
        _ reasonPhrase: String = "OK",
        location: String? = nil,
        contentType: String? = "application/json",
        body: String = "{}",
        bodyFailure: HostedFetch.BodyFailure? = nil
    ) -> HostedFetch {
        let response = HostResponse(status: status, location: location, contentType: contentType, body: Array(body.utf8))
        return HostedFetch(
            url: "https://h.test/f",
            fetchedFrom: "https://h.test:8443/f",
            result: .response(response),
            reasonPhrase: reasonPhrase,
            bodyFailure: bodyFailure
        )
    }

    static func statuses(_ verdict: HostingVerdict) -> [String] {
        verdict.checks.map { "\($0.rule) \($0.status.rawValue)" }
    }

    static let declared = HostedFetch.BodyFailure(reason: "over the cap", overCap: .declared)
    static let sent = HostedFetch.BodyFailure(reason: "sent past the cap", overCap: .sent)

    @Test(arguments: [
        (HostingVerdictTests.answer(), "", ""),
        (HostedFetch(url: "u", fetchedFrom: "u", result: .tlsFailed(reason: "bad certificate")), "https", "https"),
        (HostingVerdictTests.answer(301, "Moved Permanently", location: "https://www.h.test/f", body: ""), "no-redirect", "no-redirect"),
        (HostingVerdictTests.answer(404, "Not Found", contentType: "text/html", body: ""), "status", "status"),
        (HostingVerdictTests.answer(contentType: "text/html"), "content-type", "content-type"),
        (HostingVerdictTests.answer(contentType: nil), "content-type", "content-type"),
        (HostingVerdictTests.answer(body: "", bodyFailure: HostingVerdictTests.declared), "size", "size"),
        // A body sent past appflip's bound without a Content-Length: over both platforms' size rule.
        (HostingVerdictTests.answer(body: "", bodyFailure: HostingVerdictTests.sent), "size", "size"),
        // Read whole past 1 MiB: over Android's size rule, and still readable for the verifier that reads on.
        (HostingVerdictTests.answer(body: String(repeating: " ", count: 1024 * 1024 + 1)), "size", "size"),
        (HostedFetch(url: "u", fetchedFrom: "u", result: .failed(reason: "refused")), "could not run", "could not run"),
        (HostingVerdictTests.answer(body: "", bodyFailure: .init(reason: "stalled", overCap: nil)), "could not run", "could not run"),
    ])
    func eachAnswerBreaksItsOwnRule(fetch: HostedFetch, aasa: String, assetLinks: String) {
        for (policy, expected) in [(HostingPolicy.aasa, aasa), (.assetLinks, assetLinks)] {
            let verdict = HostingVerdict(fetch, policy: policy)
            let prefix = policy == .aasa ? "aasa" : "assetlinks"
            switch expected {
            case "could not run":
                #expect(verdict.couldNotRun != nil && verdict.checks.isEmpty, "\(prefix): \(Self.statuses(verdict))")
            case "":
                #expect(verdict.checks.allSatisfy { $0.status == .passed } && verdict.checks.count == 5, "\(prefix): \(Self.statuses(verdict))")
                #expect(verdict.body != nil)
            default:
                let id = "\(prefix).hosted-\(expected)"
                #expect(verdict.checks.filter { $0.status == .failed }.map(\.rule) == [id], "\(Self.statuses(verdict))")
                #expect(verdict.failed?.id == id)
                // What follows the failure in the policy's order is skipped, naming it; what precedes it held.
                let order = policy.order.map { policy.rules[$0].id }
                let after = order.drop { $0 != id }.dropFirst()
                for check in verdict.checks where check.rule != id {
                    #expect(check.status == (after.contains(check.rule) ? .skipped : .passed), "\(check.rule) in \(Self.statuses(verdict))")
                    if check.status == .skipped { #expect(check.evidence == "not checked: \(id) failed") }
                }
            }
        }
    }

    @Test func androidReadsAFileOfAnotherContentTypeAndJudgesItsSizeFirst() {
        let plain = HostingVerdict(Self.answer(contentType: "text/plain"), policy: .assetLinks)
        #expect(plain.body != nil, "StatementService reads it whatever its type")
        #expect(plain.checks.first { $0.rule == "assetlinks.hosted-size" }?.status == .passed)
        let ios = HostingVerdict(Self.answer(contentType: "text/plain"), policy: .aasa)
        #expect(ios.body == nil)
        #expect(ios.checks.first { $0.rule == "aasa.hosted-size" }?.status == .skipped)
        let large = HostingVerdict(Self.answer(contentType: "text/plain", body: "", bodyFailure: Self.declared), policy: .assetLinks)
        #expect(large.checks.first { $0.rule == "assetlinks.hosted-content-type" }?.evidence == "not checked: assetlinks.hosted-size failed")
    }

    @Test func theEvidenceSaysWhatWasSeenAndWhoRefusesIt() {
        let redirect = HostingVerdict(Self.answer(301, "Moved Permanently", location: "https://www.h.test/f"), policy: .aasa)
        #expect(
            redirect.failed.flatMap { failed in redirect.checks.first { $0.rule == failed.id } }?.evidence
                == "301 Moved Permanently to https://www.h.test/f; iOS follows no redirect"
        )
        let good = HostingVerdict(Self.answer(), policy: .assetLinks)
        #expect(
            good.checks.map(\.evidence) == [
                "TLS verified for https://h.test:8443/f", "200 OK, no redirect", "200 OK", "Content-Type application/json", "2 bytes",
            ]
        )
    }

    @Test func androidKeepsABodyReadWholePastItsSizeRule() {
        let whole = HostingVerdict(Self.answer(body: String(repeating: " ", count: 1024 * 1024 + 1)), policy: .assetLinks)
        #expect(whole.failed?.id == "assetlinks.hosted-size")
        #expect(whole.body?.count == 1024 * 1024 + 1, "Android 12+'s StatementService reads it")
        let cut = HostingVerdict(Self.answer(body: "", bodyFailure: Self.sent), policy: .assetLinks)
        #expect(cut.body == nil)
    }

    @Test func iOSReadsNoBodyItWouldRefuse() {
        #expect(!HostingPolicy.aasa.readsBody(status: 404, contentType: "application/json"))
        #expect(!HostingPolicy.aasa.readsBody(status: 200, contentType: "text/html"))
        #expect(HostingPolicy.aasa.readsBody(status: 200, contentType: "Application/JSON; charset=utf-8"))
        #expect(HostingPolicy.assetLinks.readsBody(status: 404, contentType: nil))
    }
}

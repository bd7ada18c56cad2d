import AppFlipCore
import Testing

/// One id per rule per platform, each with its data, and the same rule under the same id wherever it is
/// reported: `aasa check`, `assetlinks check` and the audit.
@Suite struct HostedRuleTests {
    @Test func eachPlatformHasItsIDs() {
        #expect(
            HostedRule.aasa.map(\.id) == [
                "aasa.hosted-https", "aasa.hosted-no-redirect", "aasa.hosted-status", "aasa.hosted-content-type", "aasa.hosted-size",
                "aasa.valid", "aasa.app-id", "aasa.url-decision", "aasa.drift",
            ]
        )
        #expect(HostedRule.assetLinks.map(\.id) == AssetLinksRule.allCases.map(\.rawValue))
        for rule in HostedRule.aasa + HostedRule.assetLinks {
            #expect(HostedRule.named(rule.id) == rule)
            #expect(!rule.title.isEmpty && !rule.sentence.isEmpty && !rule.source.isEmpty, "\(rule.id)")
        }
    }

    @Test func assetLinksRuleReadsTheRulesData() {
        for rule in AssetLinksRule.allCases {
            #expect(rule.title == rule.rule.title && rule.sentence == rule.rule.sentence && rule.source == rule.rule.source)
        }
    }
}

import AppFlipAudit
import AppFlipCore
import Testing

/// The audit reports each hosted-file rule under the rule's own id, with the rule's own texts: one id means one
/// thing in `aasa check`, `assetlinks check` and the audit.
@Suite struct HostedRuleCatalogueTests {
    @Test func theAuditsTextsAreTheRulesOwn() throws {
        for rule in HostedRule.aasa + HostedRule.assetLinks {
            guard let check = AuditCatalogue.spec(id: rule.id) else { continue }
            #expect(check.title == rule.title, "\(rule.id)")
            #expect(check.rule == rule.sentence, "\(rule.id)")
            #expect(check.source == rule.source, "\(rule.id)")
        }
        // Every hosting rule and `valid`, on both platforms, is an audit check.
        let audited = (HostingPolicy.aasa.rules.all + HostingPolicy.assetLinks.rules.all).map(\.id) + ["aasa.valid", "assetlinks.valid"]
        #expect(audited.filter { AuditCatalogue.spec(id: $0) == nil } == [])
    }
}

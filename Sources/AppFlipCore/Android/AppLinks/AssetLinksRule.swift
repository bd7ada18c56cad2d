/// Android's hosted-file rules by id, as the audit's catalogue names them. Each rule's data (title, sentence,
/// source) is a `HostedRule`, kept beside the code that judges it (`HostingPolicy.assetLinks`,
/// `AssetLinksFileCheck`).
public enum AssetLinksRule: String, Sendable, Hashable, CaseIterable {
    case hostedHTTPS = "assetlinks.hosted-https"
    case hostedNoRedirect = "assetlinks.hosted-no-redirect"
    case hostedStatus = "assetlinks.hosted-status"
    case hostedContentType = "assetlinks.hosted-content-type"
    case hostedSize = "assetlinks.hosted-size"
    case valid = "assetlinks.valid"
    case delegates = "assetlinks.delegates"
    case googleVerifies = "assetlinks.google-verifies"
    case statementServiceVerifies = "assetlinks.statement-service-verifies"
    case urlDecision = "assetlinks.url-decision"
    case drift = "assetlinks.drift"

    /// The rule's data; every case has one (`HostedRuleTests`).
    public var rule: HostedRule { HostedRule.named(rawValue)! }

    /// What the rule asks, in one line.
    public var title: String { rule.title }

    /// The rule, in one sentence.
    public var sentence: String { rule.sentence }

    /// Where the rule is written down.
    public var source: String { rule.source }
}

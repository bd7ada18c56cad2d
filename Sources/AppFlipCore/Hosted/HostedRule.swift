/// One rule a hosted well-known file (apple-app-site-association, assetlinks.json) must keep, as data: its
/// stable id, what it asks in a few words, the rule in one sentence, and where it is written down. Each rule
/// is defined beside the code that judges it, as swift-format and SwiftLint keep a rule's description; the
/// platforms' lists below are the registry `appflip aasa check`, `appflip assetlinks check` and the audit
/// report from.
public struct HostedRule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The stable id, `PLATFORM.RULE`: `aasa.hosted-https`, `assetlinks.delegates`.
    public let id: String
    /// What the rule asks, in a few words.
    public let title: String
    /// The rule, in one sentence.
    public let sentence: String
    /// Where the rule is written down.
    public let source: String

    /// A rule: its id, title, sentence and source.
    public init(id: String, title: String, sentence: String, source: String) {
        self.id = id
        self.title = title
        self.sentence = sentence
        self.source = source
    }

    /// The id.
    public var description: String { id }
}

extension HostedRule {
    /// iOS's rules, in the order `aasa check` reports them.
    public static let aasa: [HostedRule] =
        HostingPolicy.aasa.rules.all + [AASAFileCheck.valid, AASAFileCheck.appID, AASAFileCheck.urlDecision, AASAFileCheck.drift]

    /// Android's rules, in the order `assetlinks check` reports them.
    public static let assetLinks: [HostedRule] =
        HostingPolicy.assetLinks.rules.all + [
            AssetLinksFileCheck.valid, AssetLinksFileCheck.delegates, AssetLinksFileCheck.googleVerifies,
            AssetLinksFileCheck.statementServiceVerifies, AssetLinksFileCheck.urlDecision, AssetLinksFileCheck.drift,
        ]

    /// The rule with `id`, of either platform.
    public static func named(_ id: String) -> HostedRule? { registry[id] }

    private static let registry = Dictionary(uniqueKeysWithValues: (aasa + assetLinks).map { ($0.id, $0) })
}

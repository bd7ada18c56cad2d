/// The asset a statement points at: an Android app (package and signing-certificate fingerprints) or a
/// website (digitalassetlinks `well-known/details.md`, "Asset descriptors").
public enum AssetTarget: Sendable, Hashable {
    /// `fingerprints` as written: Google's verifier keeps only well-formed ones (see `CertificateFingerprint`),
    /// AOSP's compares them as strings.
    case androidApp(packageName: String, fingerprints: [String])
    /// `site` as written.
    case web(site: String)
}

/// One statement of a statement list: "the source delegates `relations` to `target`", with Android 15's
/// dynamic rules for the `handle_all_urls` relation.
public struct AssetStatement: Sendable, Hashable {
    /// Every relation string, as written (string values only).
    public let relations: [String]
    public let target: AssetTarget
    /// `relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components`.
    public let dynamicRules: [DynamicAppLinkRule]
    /// Where it was written in its document.
    public let pointer: String

    public init(relations: [String], target: AssetTarget, dynamicRules: [DynamicAppLinkRule] = [], pointer: String = "") {
        self.relations = relations
        self.target = target
        self.dynamicRules = dynamicRules
        self.pointer = pointer
    }

    /// Whether this statement lets the app `packageName`, signed by any of `fingerprints`, handle the
    /// source's links: the relation `handle_all_urls` and an exact, case-sensitive fingerprint match
    /// (`AndroidAppAssetMatcher.matches`: the same package and one certificate in common).
    public func delegatesLinks(toPackage packageName: String, signedBy fingerprints: [String]) -> Bool {
        guard relations.contains(RelationString.handleAllURLs), case .androidApp(let package, let written) = target else { return false }
        return package == packageName && written.contains(where: fingerprints.contains)
    }
}

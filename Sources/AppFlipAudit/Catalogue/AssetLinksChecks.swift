public import AppFlipCore

extension CheckSpec {
    /// `assetlinks.hosted-https`.
    public static let assetLinksHostedHTTPS = CheckSpec(
        id: "assetlinks.hosted-https",
        target: .androidAssociationFile,
        title: AssetLinksRule.hostedHTTPS.title,
        rule: AssetLinksRule.hostedHTTPS.sentence,
        source: AssetLinksRule.hostedHTTPS.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-no-redirect`.
    public static let assetLinksHostedNoRedirect = CheckSpec(
        id: "assetlinks.hosted-no-redirect",
        target: .androidAssociationFile,
        title: AssetLinksRule.hostedNoRedirect.title,
        rule: AssetLinksRule.hostedNoRedirect.sentence,
        source: AssetLinksRule.hostedNoRedirect.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-status`.
    public static let assetLinksHostedStatus = CheckSpec(
        id: "assetlinks.hosted-status",
        target: .androidAssociationFile,
        title: AssetLinksRule.hostedStatus.title,
        rule: AssetLinksRule.hostedStatus.sentence,
        source: AssetLinksRule.hostedStatus.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-content-type`.
    public static let assetLinksHostedContentType = CheckSpec(
        id: "assetlinks.hosted-content-type",
        target: .androidAssociationFile,
        title: AssetLinksRule.hostedContentType.title,
        rule: AssetLinksRule.hostedContentType.sentence,
        source: AssetLinksRule.hostedContentType.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-size`.
    public static let assetLinksHostedSize = CheckSpec(
        id: "assetlinks.hosted-size",
        target: .androidAssociationFile,
        title: AssetLinksRule.hostedSize.title,
        rule: AssetLinksRule.hostedSize.sentence,
        source: AssetLinksRule.hostedSize.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.valid`.
    public static let assetLinksValid = CheckSpec(
        id: "assetlinks.valid",
        target: .androidAssociationFile,
        title: AssetLinksRule.valid.title,
        rule: AssetLinksRule.valid.sentence,
        source: AssetLinksRule.valid.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.delegates`.
    public static let assetLinksDelegates = CheckSpec(
        id: "assetlinks.delegates",
        target: .androidAssociationFile,
        title: AssetLinksRule.delegates.title,
        rule: AssetLinksRule.delegates.sentence,
        source: AssetLinksRule.delegates.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.google-verifies`.
    public static let assetLinksGoogleVerifies = CheckSpec(
        id: "assetlinks.google-verifies",
        target: .androidAssociationFile,
        title: AssetLinksRule.googleVerifies.title,
        rule: AssetLinksRule.googleVerifies.sentence,
        source: AssetLinksRule.googleVerifies.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.statement-service-verifies`.
    public static let assetLinksStatementServiceVerifies = CheckSpec(
        id: "assetlinks.statement-service-verifies",
        target: .androidAssociationFile,
        title: AssetLinksRule.statementServiceVerifies.title,
        rule: AssetLinksRule.statementServiceVerifies.sentence,
        source: AssetLinksRule.statementServiceVerifies.source,
        level: .must,
        requires: [.androidAssociationFile]
    )
}

extension AuditCatalogue {
    /// The Android association file's checks, in report order.
    static let androidAssociationFile: [CheckSpec] = [
        .assetLinksHostedHTTPS, .assetLinksHostedNoRedirect, .assetLinksHostedStatus, .assetLinksHostedContentType, .assetLinksHostedSize,
        .assetLinksValid, .assetLinksDelegates, .assetLinksGoogleVerifies, .assetLinksStatementServiceVerifies,
    ]
}

public import AppFlipCore

extension CheckSpec {
    /// `assetlinks.hosted-https`.
    public static let assetLinksHostedHTTPS = CheckSpec(
        AssetLinksRule.hostedHTTPS.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-no-redirect`.
    public static let assetLinksHostedNoRedirect = CheckSpec(
        AssetLinksRule.hostedNoRedirect.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-status`.
    public static let assetLinksHostedStatus = CheckSpec(
        AssetLinksRule.hostedStatus.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-content-type`.
    public static let assetLinksHostedContentType = CheckSpec(
        AssetLinksRule.hostedContentType.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.hosted-size`.
    public static let assetLinksHostedSize = CheckSpec(
        AssetLinksRule.hostedSize.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.valid`.
    public static let assetLinksValid = CheckSpec(
        AssetLinksRule.valid.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.delegates`.
    public static let assetLinksDelegates = CheckSpec(
        AssetLinksRule.delegates.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.google-verifies`.
    public static let assetLinksGoogleVerifies = CheckSpec(
        AssetLinksRule.googleVerifies.rule,
        target: .androidAssociationFile,
        level: .must,
        requires: [.androidAssociationFile]
    )
    /// `assetlinks.statement-service-verifies`.
    public static let assetLinksStatementServiceVerifies = CheckSpec(
        AssetLinksRule.statementServiceVerifies.rule,
        target: .androidAssociationFile,
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

public import AppFlipCore

extension CheckSpec {
    /// `aasa.valid`.
    public static let associationValid = CheckSpec(AASAFileCheck.valid, target: .associationFile, level: .must, requires: [.associationFile])
    /// `aasa.routes-link`.
    public static let associationRoutesLink = CheckSpec(
        id: "aasa.routes-link",
        target: .associationFile,
        title: "the association file routes the flip link to the app",
        rule: "Its applinks rules send the flip link to the partner's app id.",
        source: "\(AuditSource.appleAASA); \(AuditSource.seed), step 1",
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-https`.
    public static let associationHostedHTTPS = CheckSpec(
        HostingPolicy.aasa.rules.https,
        target: .associationFile,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-no-redirect`.
    public static let associationHostedNoRedirect = CheckSpec(
        HostingPolicy.aasa.rules.noRedirect,
        target: .associationFile,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-status`.
    public static let associationHostedStatus = CheckSpec(
        HostingPolicy.aasa.rules.status,
        target: .associationFile,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-content-type`.
    public static let associationHostedContentType = CheckSpec(
        HostingPolicy.aasa.rules.contentType,
        target: .associationFile,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-size`.
    public static let associationHostedSize = CheckSpec(
        HostingPolicy.aasa.rules.size,
        target: .associationFile,
        level: .must,
        requires: [.associationFile]
    )
}

extension AuditCatalogue {
    /// The association file's checks, in report order.
    static let associationFile: [CheckSpec] = [
        .associationValid, .associationRoutesLink, .associationHostedHTTPS, .associationHostedNoRedirect, .associationHostedStatus,
        .associationHostedContentType, .associationHostedSize,
    ]
}

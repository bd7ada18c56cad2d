public import AppFlipCore

extension CheckSpec {
    /// `aasa.valid`.
    public static let associationValid = CheckSpec(
        id: "aasa.valid",
        target: .associationFile,
        title: "the association file is valid",
        rule: "The apple-app-site-association file parses and follows Apple's format.",
        source: AuditSource.appleAASA,
        level: .must,
        requires: [.associationFile]
    )
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
        id: "aasa.hosted-https",
        target: .associationFile,
        title: "the hosted file is served over HTTPS with a trusted certificate",
        rule: "The domain's file is fetched over HTTPS with a certificate trusted for the domain's name.",
        source: AuditSource.appleHosting,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-no-redirect`.
    public static let associationHostedNoRedirect = CheckSpec(
        id: "aasa.hosted-no-redirect",
        target: .associationFile,
        title: "the hosted file is served at its URL without a redirect",
        rule: "The file is served at its well-known URL: iOS follows no redirect.",
        source: AuditSource.appleHosting,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-status`.
    public static let associationHostedStatus = CheckSpec(
        id: "aasa.hosted-status",
        target: .associationFile,
        title: "the hosted file is answered with 200 OK",
        rule: "The file is answered with 200 OK; any other status is no file.",
        source: AuditSource.hostingStatus,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-content-type`.
    public static let associationHostedContentType = CheckSpec(
        id: "aasa.hosted-content-type",
        target: .associationFile,
        title: "the hosted file is served as application/json",
        rule: "The file is served with the application/json content type.",
        source: AuditSource.hostingContentType,
        level: .must,
        requires: [.associationFile]
    )
    /// `aasa.hosted-size`.
    public static let associationHostedSize = CheckSpec(
        id: "aasa.hosted-size",
        target: .associationFile,
        title: "the hosted file is at most 128 KB",
        rule: "The file is at most 128 KB, uncompressed.",
        source: AuditSource.hostingSize,
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

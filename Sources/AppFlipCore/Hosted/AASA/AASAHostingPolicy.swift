extension HostingPolicy {
    /// How iOS fetches an apple-app-site-association file (through Apple's CDN, or from the domain for
    /// `?mode=developer`): no redirect followed, 200 and `application/json` required, at most Apple's 128 KB,
    /// any body past it refused, sent or declared.
    public static let aasa = HostingPolicy(
        rules: HostingRules(
            https: HostedRule(
                id: "aasa.hosted-https",
                title: "the hosted file is served over HTTPS with a trusted certificate",
                sentence: "The domain's file is fetched over HTTPS with a certificate trusted for the domain's name.",
                source: AuditSource.appleHosting
            ),
            noRedirect: HostedRule(
                id: "aasa.hosted-no-redirect",
                title: "the hosted file is served at its URL without a redirect",
                sentence: "The file is served at its well-known URL: iOS follows no redirect.",
                source: AuditSource.appleHosting
            ),
            status: HostedRule(
                id: "aasa.hosted-status",
                title: "the hosted file is answered with 200 OK",
                sentence: "The file is answered with 200 OK; any other status is no file.",
                source: AuditSource.hostingStatus
            ),
            contentType: HostedRule(
                id: "aasa.hosted-content-type",
                title: "the hosted file is served as application/json",
                sentence: "The file is served with the application/json content type.",
                source: AuditSource.hostingContentType
            ),
            size: HostedRule(
                id: "aasa.hosted-size",
                title: "the hosted file is at most 128 KB",
                sentence: "The file is at most 128 KB, uncompressed.",
                source: AuditSource.hostingSize
            )
        ),
        wellKnownPath: "/.well-known/apple-app-site-association",
        maximumSize: AssociationFile.maximumSize,
        readLimit: AssociationFile.maximumSize,
        fileBudget: 1,
        contentTypeIsRequired: true,
        consequences: Consequences(
            redirect: "iOS follows no redirect",
            status: "iOS needs 200 OK",
            contentType: "Apple asks for application/json",
            size: "Apple accepts at most \(AssociationFile.maximumSize) bytes",
            sizeSent: "Apple accepts at most \(AssociationFile.maximumSize) bytes"
        )
    )
}

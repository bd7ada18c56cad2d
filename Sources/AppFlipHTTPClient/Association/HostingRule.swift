import AppFlipCore

/// One rule a hosted apple-app-site-association file must keep for iOS to use it, with the document that
/// states it. `appflip aasa check` and `appflip audit` report each by its `id`.
public enum HostingRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// The host answers: DNS, TCP and an HTTP response within the timeout. A failure here means the check
    /// could not run, not that the file is wrong.
    case reachable = "hosting.reachable"
    /// HTTPS with a certificate that the system trusts (or `--ca-file`) for the domain's name.
    case https = "hosting.https"
    /// The file is served at its URL, not redirected: iOS follows no redirect.
    case noRedirect = "hosting.no-redirect"
    /// The answer is 200 OK.
    case status = "hosting.status"
    /// The content type is `application/json`.
    case contentType = "hosting.content-type"
    /// The body is at most 128 KB.
    case size = "hosting.size"
    /// The body loads as an association file (appflipd's loader, as `appflip aasa validate`).
    case validFile = "file.valid"

    /// The hosting rules in the order a fetch meets them; a failure at one leaves the later ones unchecked.
    public static let fetchOrder: [HostingRule] = [.reachable, .https, .noRedirect, .status, .contentType, .size, .validFile]

    /// What the rule asks, in one line.
    public var title: String {
        switch self {
        case .reachable: "the host answers within the timeout"
        case .https: "served over HTTPS with a certificate trusted for the domain"
        case .noRedirect: "served at its URL without a redirect"
        case .status: "answered with 200 OK"
        case .contentType: "served as application/json"
        case .size: "at most 128 KB"
        case .validFile: "a valid apple-app-site-association file"
        }
    }

    /// Where the rule is written down: the texts `appflip audit`'s `aasa.hosted-*` checks cite too.
    public var source: String {
        switch self {
        case .reachable, .https, .noRedirect: AuditSource.appleHosting
        case .status: AuditSource.hostingStatus
        case .contentType: AuditSource.hostingContentType
        case .size: AuditSource.hostingSize
        case .validFile:
            "Apple, applinks and Details reference (https://developer.apple.com/documentation/bundleresources/applinks); docs/routing.md lists every code"
        }
    }
}

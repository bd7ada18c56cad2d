import AppFlipConfiguration
public import AppFlipCore

/// The association file an audit checks, the app id it must route the flip link to, and the link.
public struct AssociationTarget: Sendable, Hashable {
    /// Where the apple-app-site-association document comes from.
    public enum Source: Sendable, Hashable {
        /// A local file. The hosted file (issue 15's fetcher, by domain, with its hosting rules) becomes a
        /// second case here, and ``AssociationTarget/load()`` its one other branch.
        case file(path: String)
    }

    /// Where the document comes from.
    public var source: Source
    /// The partner's app id, `TEAMID.bundle.id`.
    public var appID: String
    /// The flip link the file must route to the app.
    public var link: RawURL

    /// The file at `source` for `appID`, checked against `link`.
    public init(source: Source, appID: String, link: RawURL) {
        self.source = source
        self.appID = appID
        self.link = link
    }

    /// The association checks; an unreadable file is unreachable.
    public func run() throws(AuditUnreachable) -> [AuditResult] {
        switch source {
        case .file(let path):
            let bytes: [UInt8]
            do {
                bytes = try ConfigurationFile.read(path)
            } catch {
                throw AuditUnreachable("the association file: \(error)")
            }
            return AssociationAudit.run(json: bytes, source: path, appID: appID, link: link)
        }
    }
}

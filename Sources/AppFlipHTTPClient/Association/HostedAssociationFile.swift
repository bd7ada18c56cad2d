public import AppFlipCore

/// A hosted apple-app-site-association file that kept every hosting rule and loaded.
public struct HostedAssociationFile: Sendable {
    /// The host whose file this is.
    public let domain: String
    /// The URL it was fetched from (Apple's CDN, a mirror, or the domain itself).
    public let url: String
    /// The `Content-Type` it was served with.
    public let contentType: String
    /// The body, as served.
    public let bytes: [UInt8]
    /// The loaded file; its `warnings` are the loader's (skipped entries and components among them).
    public let file: AssociationFile

    /// Wraps what a fetch got.
    public init(domain: String, url: String, contentType: String, bytes: [UInt8], file: AssociationFile) {
        self.domain = domain
        self.url = url
        self.contentType = contentType
        self.bytes = bytes
        self.file = file
    }
}

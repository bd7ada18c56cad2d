/// The reply to `register`.
public struct RegisterResult: Sendable, Hashable, Codable {
    /// The app id now registered on this connection.
    public var appID: String
    /// The `applinks:` entries it claims.
    public var domains: [String]
    /// What the AASA loader warned about; the registration stands.
    public var warnings: [String]

    /// Creates the reply.
    public init(appID: String, domains: [String], warnings: [String]) {
        self.appID = appID
        self.domains = domains
        self.warnings = warnings
    }
}

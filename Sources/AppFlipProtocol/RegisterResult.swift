/// The reply to `register`.
public struct RegisterResult: Sendable, Hashable, Codable {
    public var appID: String
    public var domains: [String]
    /// What the AASA loader warned about; the registration stands.
    public var warnings: [String]

    public init(appID: String, domains: [String], warnings: [String]) {
        self.appID = appID
        self.domains = domains
        self.warnings = warnings
    }
}

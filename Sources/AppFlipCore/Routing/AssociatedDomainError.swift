/// Why an entitlement entry is not a usable `applinks:` domain.
public struct AssociatedDomainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the entitlement.
    public enum Reason: Sendable, Hashable {
        case missingPrefix
        case notApplinks(String)
        case emptyHost
        case invalidHost(String)
        case invalidMode(String)
    }

    /// The entitlement as written, e.g. `applinks:*.example.com`.
    public let entitlement: String
    /// Why it cannot be used.
    public let reason: Reason

    init(_ entitlement: String, _ reason: Reason) {
        self.entitlement = entitlement
        self.reason = reason
    }

    /// A sentence naming the entitlement and what is wrong.
    public var description: String {
        let why: String
        switch reason {
        case .missingPrefix: why = "it must start with applinks: (e.g. applinks:example.com)"
        case .notApplinks(let service): why = "\(service): is not an applinks entry; only applinks: domains route universal links"
        case .emptyHost: why = "the host is empty"
        case .invalidHost(let detail): why = "the host is not a DNS name: \(detail)"
        case .invalidMode(let suffix): why = "\"?\(suffix)\" is not ?mode=developer, ?mode=managed or ?mode=developer+managed"
        }
        return "\"\(entitlement)\": \(why)"
    }
}

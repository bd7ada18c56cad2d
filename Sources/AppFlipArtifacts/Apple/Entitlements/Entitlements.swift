public import AppFlipCore

/// An entitlements dictionary: what an app's signature claims, what an `.entitlements` file asks for, or what a
/// provisioning profile allows. Every key is kept; the ones App Flip depends on have accessors.
public struct Entitlements: Sendable, Hashable {
    /// Apple's key for associated domains.
    public static let associatedDomainsKey = "com.apple.developer.associated-domains"

    /// Every entitlement, by key.
    public let values: [String: PropertyListValue]

    public init(_ values: [String: PropertyListValue]) { self.values = values }

    /// `application-identifier` (iOS), or `com.apple.application-identifier` (macOS), as written.
    public var applicationIdentifier: String? {
        values["application-identifier"]?.string ?? values["com.apple.application-identifier"]?.string
    }

    /// The application identifier split into team and bundle.
    public var appID: AppleAppID? { applicationIdentifier.flatMap(AppleAppID.init) }

    /// `com.apple.developer.team-identifier`.
    public var teamIdentifier: String? { values["com.apple.developer.team-identifier"]?.string }

    /// `get-task-allow`: true in development builds, which let a debugger attach.
    public var getTaskAllow: Bool? { values["get-task-allow"]?.bool }

    /// `com.apple.developer.associated-domains`; nil when the key is absent.
    public var associatedDomains: AssociatedDomainsClaim? {
        values[Self.associatedDomainsKey].map(AssociatedDomainsClaim.init)
    }
}

/// What an Associated Domains entitlement says: a profile allows any domain with `*`; an app claims a list.
public enum AssociatedDomainsClaim: Sendable, Hashable {
    /// `*`: any domain, as Apple's provisioning profiles write it.
    case anyDomain
    /// The entries, in order.
    case entries([AssociatedDomainEntry])
    /// Neither a string nor an array of strings: what the value is instead.
    case malformed(String)

    init(_ value: PropertyListValue) {
        if value.string == "*" {
            self = .anyDomain
        } else if let strings = value.strings {
            self = .entries(strings.map(AssociatedDomainEntry.init))
        } else {
            self = .malformed(value.text)
        }
    }

    /// The `applinks:` entries that parse, with their modes.
    public var applinks: [AssociatedDomain] {
        guard case .entries(let entries) = self else { return [] }
        return entries.compactMap(\.applinks)
    }
}

/// One entry of an Associated Domains entitlement, as written: `service:domain[?mode=…]`. An `applinks:` entry
/// is parsed as routing parses it (`AssociatedDomain`, its `?mode=developer|managed` kept); entries of other
/// services (`webcredentials:`, `activitycontinuation:`, `appclips:`) are listed, not judged.
public struct AssociatedDomainEntry: Sendable, Hashable {
    /// The entry as written.
    public let entry: String
    /// The text before the first `:`; nil without one.
    public let service: String?
    /// The parsed `applinks:` entry, nil for other services and for an entry that does not parse.
    public let applinks: AssociatedDomain?
    /// Why an `applinks:` entry does not parse; nil otherwise.
    public let error: AssociatedDomainError?

    public init(_ entry: String) {
        self.entry = entry
        self.service = entry.firstIndex(of: ":").map { String(entry[..<$0]) }
        if service == "applinks" {
            do throws(AssociatedDomainError) {
                self.applinks = try AssociatedDomain(entry)
                self.error = nil
            } catch {
                self.applinks = nil
                self.error = error
            }
        } else {
            self.applinks = nil
            self.error = nil
        }
    }
}

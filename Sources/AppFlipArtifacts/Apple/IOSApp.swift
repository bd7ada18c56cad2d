/// An iOS app as its artifacts declare it: the Info.plist, the provisioning profile, the executable's code
/// signature and an `.entitlements` file, whichever were read. Each keeps its own values: where they disagree
/// (the profile's app ID against the signature's, the signature's identifier against the Info.plist's bundle
/// identifier) the audit judges, not the reader.
public struct IOSApp: Sendable, Hashable {
    /// An artifact and the file or archive entry it was read from.
    public struct Read<Value: Sendable & Hashable>: Sendable, Hashable {
        public let entry: String
        public let value: Value

        public init(entry: String, value: Value) {
            self.entry = entry
            self.value = value
        }
    }

    public var infoPlist: Read<InfoPlist>?
    public var profile: Read<ProvisioningProfile>?
    public var executable: Read<MachOFile>?
    public var entitlementsFile: Read<Entitlements>?

    public init(
        infoPlist: Read<InfoPlist>? = nil,
        profile: Read<ProvisioningProfile>? = nil,
        executable: Read<MachOFile>? = nil,
        entitlementsFile: Read<Entitlements>? = nil
    ) {
        self.infoPlist = infoPlist
        self.profile = profile
        self.executable = executable
        self.entitlementsFile = entitlementsFile
    }

    /// The entitlements the app claims and where they come from: the executable's signature (its primary
    /// slice), else the `.entitlements` file. A profile's entitlements are what it allows, not a claim.
    public var claimedEntitlements: (source: IOSAppSource, entitlements: Entitlements)? {
        if let entitlements = executable?.value.primarySlice?.signature?.entitlements { return (.signature, entitlements) }
        if let entitlements = entitlementsFile?.value { return (.entitlementsFile, entitlements) }
        return nil
    }

    /// The Associated Domains the app claims; nil when nothing claims any.
    public var associatedDomains: AssociatedDomainsClaim? { claimedEntitlements?.entitlements.associatedDomains }

    /// Every app ID a source names, in the order profile, signature, entitlements file: the entitlements'
    /// `application-identifier`, and the CodeDirectory's team and identifier.
    public var appIDs: [Sourced<AppleAppID>] {
        var appIDs: [Sourced<AppleAppID>] = []
        if let appID = profile?.value.appID { appIDs.append(Sourced(source: .profile, value: appID)) }
        if let signature = executable?.value.primarySlice?.signature {
            if let appID = signature.entitlements?.appID { appIDs.append(Sourced(source: .signature, value: appID)) }
            let directory = signature.codeDirectory
            if let team = directory.teamIdentifier, let identifier = directory.identifier {
                appIDs.append(Sourced(source: .codeDirectory, value: AppleAppID(team: team, bundle: identifier)))
            }
        }
        if let appID = entitlementsFile?.value.appID { appIDs.append(Sourced(source: .entitlementsFile, value: appID)) }
        return appIDs
    }

    /// Every bundle identifier a source names: the Info.plist's, and the CodeDirectory's identifier.
    public var bundleIdentifiers: [Sourced<String>] {
        var identifiers: [Sourced<String>] = []
        if let identifier = infoPlist?.value.bundleIdentifier { identifiers.append(Sourced(source: .infoPlist, value: identifier)) }
        if let identifier = executable?.value.primarySlice?.signature?.codeDirectory.identifier {
            identifiers.append(Sourced(source: .codeDirectory, value: identifier))
        }
        return identifiers
    }
}

/// Where a value was read.
public enum IOSAppSource: String, Sendable, Hashable {
    case infoPlist = "Info.plist"
    case profile = "provisioning profile"
    /// The entitlements signed into the executable.
    case signature = "signed entitlements"
    /// The executable's CodeDirectory: its identifier and team.
    case codeDirectory = "code directory"
    case entitlementsFile = "entitlements file"
}

/// A value and the source it was read from.
public struct Sourced<Value: Sendable & Hashable>: Sendable, Hashable {
    public let source: IOSAppSource
    public let value: Value

    public init(source: IOSAppSource, value: Value) {
        self.source = source
        self.value = value
    }
}

public import Foundation

/// An `embedded.mobileprovision`: a CMS SignedData whose content is an XML property list (Apple, TN3125:
/// "Inside Code Signing: Provisioning Profiles"). It says who may sign (`DeveloperCertificates`), what app
/// (`Entitlements.application-identifier`), where it runs (`ProvisionedDevices`, `ProvisionsAllDevices`), when
/// (`CreationDate`, `ExpirationDate`), and which entitlements the app may claim (`Entitlements`; associated
/// domains are usually allowed as `*`).
public struct ProvisioningProfile: Sendable, Hashable {
    /// The largest profile read: real ones, devices and certificates included, are tens of kilobytes.
    public static let maximumSize = 1 << 20

    public let name: String?
    public let uuid: String?
    public let appIDName: String?
    public let teamName: String?
    /// `TeamIdentifier`.
    public let teamIdentifiers: [String]
    /// `ApplicationIdentifierPrefix`.
    public let applicationIdentifierPrefixes: [String]
    /// `Platform`: `iOS`, `xrOS`, `OSX`…
    public let platforms: [String]
    public let creationDate: Date?
    public let expirationDate: Date?
    /// `ProvisionedDevices`: the device identifiers; nil when absent.
    public let provisionedDevices: [String]?
    /// `ProvisionsAllDevices`.
    public let provisionsAllDevices: Bool
    /// What the profile allows the app to claim.
    public let entitlements: Entitlements
    /// The certificates that may sign the app (`DeveloperCertificates`).
    public let developerCertificates: [CertificateSummary]
    /// The certificates in the CMS signature: the profile's signer and its chain.
    public let signerCertificates: [CertificateSummary]

    /// The app ID the profile is for, from its entitlements.
    public var appID: AppleAppID? { entitlements.appID }

    /// The kind of distribution, decided from the devices and `get-task-allow`.
    public var kind: ProfileKind {
        ProfileKind(
            provisionsAllDevices: provisionsAllDevices,
            hasDevices: !(provisionedDevices ?? []).isEmpty,
            getTaskAllow: entitlements.getTaskAllow ?? false
        )
    }

    /// Whether the profile has expired at `now`; false when it names no expiry.
    public func isExpired(at now: Date) -> Bool { expirationDate.map { $0 <= now } ?? false }

    /// Reads the profile in `bytes`, read at `base` in `file`.
    public init(bytes: [UInt8], file: String, base: Int = 0) throws(ArtifactError) {
        guard bytes.count <= Self.maximumSize else {
            throw ArtifactError("provisioning profile", file: file, offset: base, "\(bytes.count) bytes, over the limit of \(Self.maximumSize)")
        }
        let signed = try CMSSignedData(bytes: bytes, file: file, base: base)
        guard let content = signed.content, let contentOffset = signed.contentOffset else {
            throw ArtifactError("CMS SignedData", file: file, offset: base, "it has no encapsulated content: a profile's property list is missing")
        }
        let plist = try PropertyListReader.readDictionary(content, file: file, base: contentOffset, what: "a provisioning profile")
        guard let entitlements = plist["Entitlements"]?.dictionary else {
            throw ArtifactError("provisioning profile", file: file, offset: contentOffset, "it has no Entitlements dictionary")
        }
        var developerCertificates: [CertificateSummary] = []
        for case .data(let der) in plist["DeveloperCertificates"]?.array ?? [] {
            developerCertificates.append(try CertificateSummary(der: der, file: file, offset: contentOffset))
        }
        self.name = plist["Name"]?.string
        self.uuid = plist["UUID"]?.string
        self.appIDName = plist["AppIDName"]?.string
        self.teamName = plist["TeamName"]?.string
        self.teamIdentifiers = plist["TeamIdentifier"]?.strings ?? []
        self.applicationIdentifierPrefixes = plist["ApplicationIdentifierPrefix"]?.strings ?? []
        self.platforms = plist["Platform"]?.strings ?? []
        self.creationDate = plist["CreationDate"]?.date
        self.expirationDate = plist["ExpirationDate"]?.date
        self.provisionedDevices = plist["ProvisionedDevices"]?.strings
        self.provisionsAllDevices = plist["ProvisionsAllDevices"]?.bool ?? false
        self.entitlements = Entitlements(entitlements)
        self.developerCertificates = developerCertificates
        self.signerCertificates = signed.certificates.map { CertificateSummary($0.certificate, der: $0.der) }
    }
}

/// How a profile distributes the app. Apple's profiles do not name their kind; it follows from where the app
/// may run and whether it may be debugged (TN3125, "Inside Code Signing: Provisioning Profiles"): an In-House
/// (enterprise) profile sets `ProvisionsAllDevices`; development and ad hoc profiles list `ProvisionedDevices`,
/// and only development ones allow `get-task-allow`; an App Store profile lists no devices, since the App Store
/// re-signs the app for every device. fastlane's `sigh` offers the same four kinds (`--development`,
/// `--adhoc`, the App Store default, and In-House for an enterprise account).
public enum ProfileKind: String, Sendable, Hashable {
    case development
    case adHoc = "ad-hoc"
    case enterprise
    case appStore = "app-store"
    /// No devices yet `get-task-allow`: no kind Apple issues.
    case unknown

    init(provisionsAllDevices: Bool, hasDevices: Bool, getTaskAllow: Bool) {
        if provisionsAllDevices {
            self = .enterprise
        } else if hasDevices {
            self = getTaskAllow ? .development : .adHoc
        } else {
            self = getTaskAllow ? .unknown : .appStore
        }
    }
}

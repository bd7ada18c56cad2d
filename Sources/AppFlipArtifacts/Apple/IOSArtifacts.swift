public import Foundation

/// The iOS artifacts `appflip app inspect` reads.
public enum IOSArtifactKind: String, Sendable, Hashable, CaseIterable {
    /// An `.ipa`: a zip with `Payload/NAME.app/`.
    case ipa
    /// An `embedded.mobileprovision`: CMS SignedData.
    case provisioningProfile = "provisioning-profile"
    /// A Mach-O executable, thin or universal.
    case machO = "mach-o"
    /// An `.entitlements` (or `.xcent`) property list.
    case entitlements
    /// An `Info.plist`.
    case infoPlist = "info-plist"
}

/// The public entry to the iOS readers: what kind of artifact a file is, and what it declares.
public enum IOSArtifacts {
    /// The iOS kind of the file at `path`, from its first bytes, its name, and for a property list its keys; nil
    /// when it is none of the iOS kinds (an APK, an Android manifest…), so that another reader can take it.
    public static func detect(path: String) throws(ArtifactError) -> IOSArtifactKind? {
        let file = try FileBytes(path: path)
        return try detect(file, name: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// Reads the artifact at `path`; nil when it is not an iOS artifact.
    public static func read(path: String) throws(ArtifactError) -> (kind: IOSArtifactKind, app: IOSApp)? {
        let file = try FileBytes(path: path)
        guard let kind = try detect(file, name: URL(fileURLWithPath: path).lastPathComponent) else { return nil }
        return (kind, try read(file, kind: kind))
    }

    /// Reads the artifact at `path` and reports it, judging the profile's expiry at `now`; nil when it is not an
    /// iOS artifact.
    public static func inspect(path: String, now: Date) throws(ArtifactError) -> IOSArtifactReport? {
        guard let (kind, app) = try read(path: path) else { return nil }
        return IOSArtifactReport(file: path, kind: kind, app: app, now: now)
    }

    static func detect(_ file: some ByteSource, name: String) throws(ArtifactError) -> IOSArtifactKind? {
        let head = try file.read(at: 0, count: min(file.count, 4096))
        let lowercased = name.lowercased()
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            if lowercased.hasSuffix(".ipa") { return .ipa }
            guard let archive = try? ArtifactArchive(source: file), (try? IPAReader.holdsAppBundle(archive)) == true else { return nil }
            return .ipa
        }
        let magic = head.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if [0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE, 0xCAFE_BABE, 0xCAFE_BABF].contains(magic) { return .machO }
        if head.first == 0x30, head.prefix(32).firstRange(of: [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]) != nil {
            return .provisioningProfile
        }
        let isPlist = head.starts(with: "bplist00".utf8) || head.firstRange(of: Array("<plist".utf8)) != nil
        guard isPlist else { return nil }
        if lowercased == "info.plist" { return .infoPlist }
        if lowercased.hasSuffix(".entitlements") || lowercased.hasSuffix(".xcent") { return .entitlements }
        guard file.count <= PropertyListReader.maximumSize else { return .entitlements }
        let keys = try PropertyListReader.readDictionary(try file.readAll(), file: file.name, what: "an Info.plist or entitlements file").keys
        return keys.contains { $0.hasPrefix("CFBundle") } ? .infoPlist : .entitlements
    }

    static func read(_ file: some ByteSource, kind: IOSArtifactKind) throws(ArtifactError) -> IOSApp {
        switch kind {
        case .ipa:
            return try IPAReader.read(try ArtifactArchive(source: file))
        case .machO:
            return IOSApp(executable: IOSApp.Read(entry: file.name, value: try MachOScanner.read(file)))
        case .provisioningProfile:
            let bytes = try bounded(file, limit: ProvisioningProfile.maximumSize, "provisioning profile")
            return IOSApp(profile: IOSApp.Read(entry: file.name, value: try ProvisioningProfile(bytes: bytes, file: file.name)))
        case .infoPlist:
            let bytes = try bounded(file, limit: PropertyListReader.maximumSize, "property list")
            return IOSApp(infoPlist: IOSApp.Read(entry: file.name, value: try InfoPlist(bytes: bytes, file: file.name)))
        case .entitlements:
            let bytes = try bounded(file, limit: PropertyListReader.maximumSize, "property list")
            let values = try PropertyListReader.readDictionary(bytes, file: file.name, what: "an entitlements file")
            return IOSApp(entitlementsFile: IOSApp.Read(entry: file.name, value: Entitlements(values)))
        }
    }

    /// The whole file, when it is at most `limit` bytes.
    private static func bounded(_ file: some ByteSource, limit: Int, _ structure: String) throws(ArtifactError) -> [UInt8] {
        guard file.count <= limit else {
            throw ArtifactError(structure, file: file.name, offset: 0, "\(file.count) bytes, over the limit of \(limit)")
        }
        return try file.readAll()
    }
}

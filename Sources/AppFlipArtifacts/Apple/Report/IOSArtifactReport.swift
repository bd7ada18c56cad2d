public import Foundation

/// What `appflip app inspect` prints for an iOS artifact: every source read and its values, the associated
/// domains the app claims, and each source's app ID, as text lines and as one JSON object (docs/artifacts.md).
public struct IOSArtifactReport: Sendable {
    /// The file inspected.
    public let file: String
    public let kind: IOSArtifactKind
    public let app: IOSApp
    /// When the profile's expiry was judged.
    public let now: Date

    public init(file: String, kind: IOSArtifactKind, app: IOSApp, now: Date) {
        self.file = file
        self.kind = kind
        self.app = app
        self.now = now
    }

    /// The report as text, one line per element, indented under its source.
    public var textLines: [String] {
        var lines = ["\(Self.kindNames[kind]!): \(file)"]
        if let info = app.infoPlist { lines += infoPlistLines(info) }
        if let profile = app.profile { lines += profileLines(profile) }
        if let executable = app.executable { lines += executableLines(executable) }
        if let file = app.entitlementsFile {
            lines.append("entitlements file (\(file.entry))")
            lines += Self.entitlementLines(file.value, indent: "  ")
        }
        lines += claimLines()
        if !app.appIDs.isEmpty {
            lines.append("app IDs:")
            lines += app.appIDs.map { "  \($0.source.rawValue): \($0.value)" }
        }
        if !app.bundleIdentifiers.isEmpty {
            lines.append("bundle identifiers:")
            lines += app.bundleIdentifiers.map { "  \($0.source.rawValue): \($0.value)" }
        }
        return lines
    }

    static let kindNames: [IOSArtifactKind: String] = [
        .ipa: "iOS app archive", .provisioningProfile: "provisioning profile", .machO: "Mach-O executable",
        .entitlements: "entitlements file", .infoPlist: "Info.plist",
    ]

    private func infoPlistLines(_ info: IOSApp.Read<InfoPlist>) -> [String] {
        let plist = info.value
        var lines = ["Info.plist (\(info.entry))"]
        lines.append("  bundle identifier: \(plist.bundleIdentifier ?? "none")")
        lines.append("  executable: \(plist.executable ?? "none")")
        lines.append("  version: \(plist.shortVersion ?? "none") (\(plist.bundleVersion ?? "none")), minimum OS \(plist.minimumOSVersion ?? "none")")
        return lines
    }

    private func profileLines(_ read: IOSApp.Read<ProvisioningProfile>) -> [String] {
        let profile = read.value
        var lines = ["provisioning profile (\(read.entry))"]
        lines.append("  name: \(profile.name ?? "none") (UUID \(profile.uuid ?? "none"))")
        let devices = profile.provisionsAllDevices ? "all devices" : "\(profile.provisionedDevices?.count ?? 0) provisioned devices"
        let debuggable = profile.entitlements.getTaskAllow.map { "get-task-allow \($0)" } ?? "no get-task-allow"
        lines.append("  kind: \(profile.kind.rawValue) (\(devices), \(debuggable))")
        lines.append("  app ID: \(profile.appID?.description ?? "none")")
        lines.append("  team: \(profile.teamIdentifiers.joined(separator: ", ")) (\(profile.teamName ?? "no name"))")
        let expiry = profile.expirationDate.map { Self.date($0) + (profile.isExpired(at: now) ? " (expired)" : " (valid)") } ?? "none"
        lines.append("  created: \(profile.creationDate.map(Self.date) ?? "none"), expires: \(expiry)")
        lines.append("  platforms: \(profile.platforms.joined(separator: ", "))")
        for certificate in profile.developerCertificates { lines.append("  developer certificate: \(Self.certificate(certificate))") }
        for certificate in profile.signerCertificates { lines.append("  signature certificate: \(Self.certificate(certificate))") }
        lines.append("  allows:")
        lines += Self.entitlementLines(profile.entitlements, indent: "    ")
        return lines
    }

    private func executableLines(_ read: IOSApp.Read<MachOFile>) -> [String] {
        let file = read.value
        let architectures = file.slices.map(\.architecture).joined(separator: ", ")
        var lines = ["executable (\(read.entry)): \(file.isUniversal ? "universal" : "thin"), \(architectures)"]
        for slice in file.slices {
            let platform = slice.platform.map { " \($0) \(slice.minimumOS ?? "")" } ?? ""
            guard let signature = slice.signature, let range = slice.signatureRange else {
                lines.append("  \(slice.architecture):\(platform), unsigned")
                continue
            }
            let directory = signature.codeDirectory
            lines.append(
                "  \(slice.architecture):\(platform), signed as \(directory.identifier ?? "no identifier"), team \(directory.teamIdentifier ?? "none"), "
                    + "\(directory.hashName)\(directory.isAdHoc ? ", ad hoc" : ""), signature of \(range.count) bytes at \(slice.offset + range.lowerBound)"
            )
            for certificate in signature.certificates { lines.append("    signature certificate: \(Self.certificate(certificate))") }
            if let entitlements = signature.entitlements {
                lines.append("    entitlements (\(signature.entitlementsDER == nil ? "XML" : "DER")):")
                lines += Self.entitlementLines(entitlements, indent: "      ")
            } else {
                lines.append("    no entitlements")
            }
            if signature.entitlementFormsDisagree { lines.append("    the XML and DER entitlements disagree") }
        }
        if file.slicesDisagree { lines.append("  the slices claim different entitlements") }
        return lines
    }

    private func claimLines() -> [String] {
        guard let (source, entitlements) = app.claimedEntitlements else { return [] }
        guard let claim = entitlements.associatedDomains else { return ["associated domains (\(source.rawValue)): none"] }
        var lines = ["associated domains (\(source.rawValue)):"]
        switch claim {
        case .anyDomain: lines.append("  * (any domain)")
        case .malformed(let value): lines.append("  not a list of strings: \(value)")
        case .entries(let entries):
            for entry in entries {
                if let domain = entry.applinks {
                    lines.append("  \(domain)")
                } else if let error = entry.error {
                    lines.append("  \(entry.entry) (invalid: \(error))")
                } else {
                    lines.append("  \(entry.entry) (\(entry.service ?? "no service"): listed, not judged)")
                }
            }
        }
        return lines
    }

    static func entitlementLines(_ entitlements: Entitlements, indent: String) -> [String] {
        entitlements.values.keys.sorted().map { "\(indent)\($0): \(entitlements.values[$0]!.text)" }
    }

    static func certificate(_ certificate: CertificateSummary) -> String {
        "\(certificate.commonName ?? certificate.subject), valid until \(date(certificate.notValidAfter)), SHA-256 \(certificate.sha256)"
    }

    static func date(_ date: Date) -> String { date.formatted(.iso8601) }
}

public import AppFlipCore
import Foundation

extension IOSArtifactReport {
    /// The report as one JSON object; docs/artifacts.md lists every member and its source.
    public var json: JSONValue {
        .object([
            "platform": .string("ios"),
            "kind": .string(kind.rawValue),
            "file": .string(file),
            "infoPlist": app.infoPlist.map(Self.infoPlistJSON) ?? .null,
            "profile": app.profile.map(profileJSON) ?? .null,
            "executable": app.executable.map(Self.executableJSON) ?? .null,
            "entitlementsFile": app.entitlementsFile.map { .object(["entry": .string($0.entry), "entitlements": Self.json($0.value)]) } ?? .null,
            "associatedDomains": app.claimedEntitlements.map { claim in
                .object(["source": .string(claim.source.rawValue), "claim": Self.json(claim.entitlements.associatedDomains)])
            } ?? .null,
            "appIDs": .array(
                app.appIDs.map {
                    .object([
                        "source": .string($0.source.rawValue), "appID": .string($0.value.description), "team": .string($0.value.team),
                        "bundle": .string($0.value.bundle), "wildcard": .bool($0.value.isWildcard),
                    ])
                }
            ),
            "bundleIdentifiers": .array(app.bundleIdentifiers.map { .object(["source": .string($0.source.rawValue), "value": .string($0.value)]) }),
        ])
    }

    private static func infoPlistJSON(_ read: IOSApp.Read<InfoPlist>) -> JSONValue {
        let plist = read.value
        return .object([
            "entry": .string(read.entry),
            "bundleIdentifier": string(plist.bundleIdentifier),
            "executable": string(plist.executable),
            "shortVersion": string(plist.shortVersion),
            "bundleVersion": string(plist.bundleVersion),
            "minimumOSVersion": string(plist.minimumOSVersion),
        ])
    }

    private func profileJSON(_ read: IOSApp.Read<ProvisioningProfile>) -> JSONValue {
        let profile = read.value
        return .object([
            "entry": .string(read.entry),
            "name": Self.string(profile.name),
            "uuid": Self.string(profile.uuid),
            "appIDName": Self.string(profile.appIDName),
            "kind": .string(profile.kind.rawValue),
            "appID": Self.string(profile.appID?.description),
            "teamIdentifiers": .array(profile.teamIdentifiers.map(JSONValue.string)),
            "teamName": Self.string(profile.teamName),
            "applicationIdentifierPrefixes": .array(profile.applicationIdentifierPrefixes.map(JSONValue.string)),
            "platforms": .array(profile.platforms.map(JSONValue.string)),
            "creationDate": Self.string(profile.creationDate.map(Self.date)),
            "expirationDate": Self.string(profile.expirationDate.map(Self.date)),
            "expired": .bool(profile.isExpired(at: now)),
            "provisionedDevices": profile.provisionedDevices.map { .array($0.map(JSONValue.string)) } ?? .null,
            "provisionsAllDevices": .bool(profile.provisionsAllDevices),
            "entitlements": Self.json(profile.entitlements),
            "associatedDomains": Self.json(profile.entitlements.associatedDomains),
            "developerCertificates": .array(profile.developerCertificates.map(Self.json)),
            "signerCertificates": .array(profile.signerCertificates.map(Self.json)),
        ])
    }

    private static func executableJSON(_ read: IOSApp.Read<MachOFile>) -> JSONValue {
        .object([
            "entry": .string(read.entry),
            "universal": .bool(read.value.isUniversal),
            "slicesDisagree": .bool(read.value.slicesDisagree),
            "slices": .array(
                read.value.slices.map { slice in
                    .object([
                        "architecture": .string(slice.architecture),
                        "offset": .number(Double(slice.offset)),
                        "size": .number(Double(slice.size)),
                        "fileType": .number(Double(slice.fileType)),
                        "platform": string(slice.platform),
                        "minimumOS": string(slice.minimumOS),
                        "signatureOffset": slice.signatureRange.map { .number(Double($0.lowerBound)) } ?? .null,
                        "signatureSize": slice.signatureRange.map { .number(Double($0.count)) } ?? .null,
                        "signature": slice.signature.map(json) ?? .null,
                    ])
                }
            ),
        ])
    }

    private static func json(_ signature: CodeSignature) -> JSONValue {
        let directory = signature.codeDirectory
        return .object([
            "identifier": string(directory.identifier),
            "teamIdentifier": string(directory.teamIdentifier),
            "hashType": .string(directory.hashName),
            "pageSize": .number(Double(directory.pageSize)),
            "flags": .number(Double(directory.flags)),
            "adHoc": .bool(directory.isAdHoc),
            "codeDirectoryVersion": .number(Double(directory.version)),
            "codeDirectories": .number(Double(signature.codeDirectories.count)),
            "entitlements": signature.entitlements.map(json) ?? .null,
            "entitlementsForm": signature.entitlementsDER != nil ? .string("der") : signature.entitlementsXML != nil ? .string("xml") : .null,
            "entitlementFormsDisagree": .bool(signature.entitlementFormsDisagree),
            "certificates": .array(signature.certificates.map(json)),
        ])
    }

    static func json(_ entitlements: Entitlements) -> JSONValue { .object(entitlements.values.mapValues(\.json)) }

    private static func json(_ claim: AssociatedDomainsClaim?) -> JSONValue {
        switch claim {
        case nil: .null
        case .anyDomain: .string("*")
        case .malformed(let value): .object(["malformed": .string(value)])
        case .entries(let entries):
            .array(
                entries.map { entry in
                    .object([
                        "entry": .string(entry.entry),
                        "service": string(entry.service),
                        "host": string(entry.applinks?.host),
                        "wildcard": entry.applinks.map { .bool($0.isWildcard) } ?? .null,
                        "modes": entry.applinks.map { .array($0.modes.map(\.rawValue).sorted().map(JSONValue.string)) } ?? .null,
                        "error": string(entry.error?.description),
                    ])
                }
            )
        }
    }

    private static func json(_ certificate: CertificateSummary) -> JSONValue {
        .object([
            "subject": .string(certificate.subject),
            "commonName": string(certificate.commonName),
            "organizationalUnit": string(certificate.organizationalUnit),
            "organization": string(certificate.organization),
            "notValidBefore": .string(date(certificate.notValidBefore)),
            "notValidAfter": .string(date(certificate.notValidAfter)),
            "sha256": .string(certificate.sha256),
        ])
    }

    private static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
}

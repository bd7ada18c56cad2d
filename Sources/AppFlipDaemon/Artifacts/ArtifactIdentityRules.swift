import AppFlipConfiguration
import AppFlipCore
import FoundationEssentials

/// What an app file that names an artifact routes by: an Android artifact's identity, an iOS artifact's
/// associated domains, with each member the file also writes by hand held to it. A member that disagrees refuses the app, naming the member, rather
/// than being merged: the daemon would otherwise route as an app that was never built, which is the mistake an
/// artifact is named to rule out.
///
/// The fingerprints are the one member the artifact cannot always give: a manifest carries no signature, and an
/// Android App Bundle is signed by the upload key, while Google Play re-signs the APKs devices install with the
/// app signing key. With those, `android.fingerprints` is required and is the app's; with an APK it is optional
/// and must list the APK's signing certificates, current and past.
enum ArtifactIdentityRules {
    /// `report`'s identity, for the artifact `file`, with `declared` (the file's `android` object) held to it.
    /// - Throws: the member at fault: `artifact` for what the artifact alone decides, `android.MEMBER` for a
    ///   member written by hand that disagrees with it or that the artifact needs.
    static func identity(
        _ report: ArtifactInspector.Report,
        artifact file: String,
        declared: AndroidIdentityFile?
    ) throws(ConfigurationError) -> AndroidIdentity {
        guard let artifact = report.identity else {
            throw ConfigurationError(field: "artifact", "\(file) (\(report.kind)) declares no Android identity")
        }
        if let package = declared?.package, package != artifact.package {
            throw ConfigurationError(field: "android.package", "is \(package), but \(file) declares \(artifact.package)")
        }
        let fingerprints = try self.fingerprints(artifact.fingerprints, kind: report.kind, file: file, declared: declared?.fingerprints)
        try agree(declared?.activities, artifact.activities, member: "activities", file: file)
        try agree(declared?.intentFilters, artifact.intentFilters, member: "intentFilters", file: file)
        let identity = AndroidIdentity(
            package: artifact.package,
            fingerprints: fingerprints,
            activities: artifact.activities,
            intentFilters: artifact.intentFilters
        )
        if let problem = identity.problem() {
            let field = problem.field ?? ""
            if field.hasPrefix("fingerprints"), declared?.fingerprints != nil {
                throw ConfigurationError(field: "android." + field, "is invalid: \(problem.message)")
            }
            throw ConfigurationError(field: "artifact", "\(file) declares an app Android would not install: \(field): \(problem.message)")
        }
        return identity
    }

    /// The associated domains an iOS artifact claims, for the app file's `appID`, with `declared` (the file's
    /// `domains`) held to them: the `applinks:` entries as written, `?mode=` and all.
    /// - Throws: `appID` when a source of the artifact names another app, `domains` when the file's differ,
    ///   `artifact` when the artifact claims no domains the daemon can route by.
    static func domains(
        _ report: ArtifactInspector.Report,
        artifact file: String,
        appID: String,
        declared: [String]
    ) throws(ConfigurationError) -> [String] {
        for source in report.appIDs ?? [] where !source.wildcard && source.appID != appID {
            throw ConfigurationError(field: "appID", "is \(appID), but the \(source.source) of \(file) says \(source.appID)")
        }
        guard let claimed = report.associatedDomains, let claim = claimed.claim else {
            throw ConfigurationError(
                field: "artifact",
                "\(file) (\(report.kind)) claims no associated domains: name the .ipa, its executable or the entitlements file "
                    + "(a provisioning profile only allows domains)"
            )
        }
        let entries: [ArtifactInspector.AssociatedDomains.Entry]
        switch claim {
        case .anyDomain:
            throw ConfigurationError(field: "artifact", "the \(claimed.source) of \(file) claim every domain (`*`), which only a profile may allow")
        case .malformed(let value):
            throw ConfigurationError(
                field: "artifact",
                "the associated domains in the \(claimed.source) of \(file) are not a list of strings: \(value)"
            )
        case .entries(let list):
            entries = list.filter { $0.service == "applinks" }
        }
        if let broken = entries.first(where: { $0.error != nil }) {
            throw ConfigurationError(
                field: "artifact",
                "the \(claimed.source) of \(file) claim \(broken.entry), which iOS ignores: \(broken.error ?? "")"
            )
        }
        let domains = entries.map(\.entry)
        guard !domains.isEmpty else {
            throw ConfigurationError(field: "artifact", "the \(claimed.source) of \(file) claim no applinks: domain")
        }
        if !declared.isEmpty, Set(declared) != Set(domains) {
            throw ConfigurationError(
                field: "domains",
                "differ from the applinks: domains the \(claimed.source) of \(file) claim: \(domains.joined(separator: ", "))"
            )
        }
        return domains
    }

    /// The fingerprints devices see: an APK's own signing history, a bundle's or a manifest's from the file.
    private static func fingerprints(_ signed: [String], kind: String, file: String, declared: [String]?) throws(ConfigurationError) -> [String] {
        guard kind == "apk" else {
            guard let declared else {
                let why =
                    kind == "aab"
                    ? "a bundle is signed by the upload key, and Google Play re-signs the APKs devices install with the app signing key, "
                        + "whose SHA-256 fingerprint this lists (Play Console, Setup > App signing)"
                    : "a manifest carries no signature"
                throw ConfigurationError(field: "android.fingerprints", "is required with an artifact of kind \(kind): \(why)")
            }
            return declared
        }
        guard !signed.isEmpty else {
            throw ConfigurationError(field: "artifact", "\(file) is not signed: Android installs no unsigned APK")
        }
        if let declared, Set(declared.map { $0.uppercased() }) != Set(signed) {
            throw ConfigurationError(
                field: "android.fingerprints",
                "differ from the signing certificates of \(file), current and past: \(signed.joined(separator: ", "))"
            )
        }
        return signed
    }

    /// Refuses a hand-written `member` that differs from the artifact's, naming the first entry that does.
    private static func agree<Element: Equatable & Encodable>(
        _ declared: [Element]?,
        _ artifact: [Element],
        member: String,
        file: String
    ) throws(ConfigurationError) {
        guard let declared, declared != artifact else { return }
        guard declared.count == artifact.count else {
            throw ConfigurationError(
                field: "android.\(member)",
                "lists \(declared.count), but \(file) declares \(artifact.count): leave it out to take the artifact's, or write them as it does"
            )
        }
        let index = declared.indices.first { declared[$0] != artifact[$0] } ?? 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let written = (try? encoder.encode(artifact[index])).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        throw ConfigurationError(field: "android.\(member)[\(index)]", "differs from what \(file) declares: \(written)")
    }
}

import AppFlipConfiguration
import AppFlipCore
import FoundationEssentials

/// The Android identity of an app file that names an artifact: what the artifact declares, with each member
/// the file also writes by hand held to it. A member that disagrees refuses the app, naming the member, rather
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
        guard report.platform == "android", let artifact = report.identity else {
            throw ConfigurationError(
                field: "artifact",
                "\(file) is an iOS artifact (\(report.kind)); the daemon routes by Android artifacts (APK, AAB, AndroidManifest.xml): "
                    + "write an iOS app's domains and association in its app file"
            )
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

import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser
import FoundationEssentials

/// `appflip audit --app FILE…`: the partner's own build artifacts, held against its hosted files and the
/// audit's other options (docs/audit.md, "App artifacts").
struct AppArtifactOptions: ParsableArguments {
    @Option(
        name: .customLong("app"),
        help: """
            A build artifact of the partner's app, read as `appflip app inspect` reads it (repeat for several): one \
            APK, AAB or AndroidManifest.xml, checked against each App Links host's assetlinks.json (or \
            --assetlinks-file), --fingerprint and --android-action; an .ipa, or an embedded.mobileprovision, \
            executable and .entitlements file of one app, checked against --link's host and its association file \
            (or --aasa-file).
            """
    )
    var files: [String] = []

    /// True when `--app` was given.
    var isGiven: Bool { !files.isEmpty }

    /// The target, with the audit's options that feed it.
    func target(
        link: RawURL?,
        androidAction: String?,
        fingerprints: [String],
        assetLinksFile: String?,
        aasaFile: String?,
        fetch: AASAFetchSourceOptions
    ) -> AppArtifactTarget? {
        guard isGiven else { return nil }
        return AppArtifactTarget(
            files: files,
            link: link,
            androidAction: androidAction,
            fingerprints: fingerprints,
            assetLinksFile: assetLinksFile,
            aasaFile: aasaFile,
            cdnBase: fetch.cdnBase ?? HostedFileSource.appleCDNBase,
            port: fetch.port,
            trust: fetch.caFile.map(HostedFileTrust.caFile) ?? .system,
            now: Date()
        )
    }
}

extension AuditCommand {
    /// Whether the partner app through appflipd is a target: --link, unless with --app and without
    /// --client-id it only names the flip link the iOS artifacts are checked against.
    var partnerTargetGiven: Bool {
        link != nil && (clientID != nil || !appArtifacts.isGiven)
    }

    /// Whether the Android app through appflipd is a target: --android-action with its package and the
    /// REDIRECT_URI (with --app, the action alone checks the artifact's activity).
    var androidTargetGiven: Bool {
        androidAction != nil && (androidPackage != nil && redirectURI != nil || !appArtifacts.isGiven)
    }
}

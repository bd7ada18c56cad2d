public import AppFlipCore
public import AppFlipHTTPClient
public import Foundation

/// The partner's own build artifacts (`appflip audit --app FILE…`), held against its hosted files and the
/// audit's options: an Android artifact (an APK, an AAB or a manifest) against each App Links host's
/// assetlinks.json, `--fingerprint` and `--android-action`; iOS artifacts (an .ipa, or a profile, an executable
/// and an .entitlements file together) against the flip link's host and its apple-app-site-association file.
public struct AppArtifactTarget: Sendable, Hashable {
    /// The artifacts, read as `appflip app inspect` reads them: at most one Android artifact; the iOS ones
    /// are one app.
    public var files: [String]
    /// The flip link (`--link`): the host the iOS app must claim and whose association file routes it.
    public var link: RawURL?
    /// The App Flip action entered in the Actions console (`--android-action`).
    public var androidAction: String?
    /// The app's signing-certificate fingerprints the partner gives (`--fingerprint`): for an AAB, the
    /// app-signing key Google Play signs with.
    public var fingerprints: [String]
    /// A local assetlinks.json (`--assetlinks-file`) that stands for the file of every App Links host; nil:
    /// each host's file is fetched, as Android fetches it.
    public var assetLinksFile: String?
    /// A local apple-app-site-association file (`--aasa-file`) that stands for the flip host's; nil: fetched.
    public var aasaFile: String?
    /// Apple's CDN, or a mirror (`--cdn-base`), for an associated domain without `?mode=developer`.
    public var cdnBase: String
    /// A local test server's port for the direct fetches (`--port`): each host's assetlinks.json, and the
    /// association file of a domain claimed with `?mode=developer`.
    public var port: Int?
    /// The certificate authorities the fetches trust (`--ca-file`).
    public var trust: HostedFileTrust
    /// When the provisioning profile's expiry is judged.
    public var now: Date

    /// The artifacts `files`, judged at `now`; every other input is optional.
    public init(
        files: [String],
        link: RawURL? = nil,
        androidAction: String? = nil,
        fingerprints: [String] = [],
        assetLinksFile: String? = nil,
        aasaFile: String? = nil,
        cdnBase: String = HostedFileSource.appleCDNBase,
        port: Int? = nil,
        trust: HostedFileTrust = .system,
        now: Date = Date()
    ) {
        self.files = files
        self.link = link
        self.androidAction = androidAction
        self.fingerprints = fingerprints
        self.assetLinksFile = assetLinksFile
        self.aasaFile = aasaFile
        self.cdnBase = cdnBase
        self.port = port
        self.trust = trust
        self.now = now
    }

    /// How each App Links host's assetlinks.json is fetched: from the host, as Android does.
    var assetLinksFetch: HostedFetchOptions {
        HostedFetchOptions(source: .direct(port: port), trust: trust, timeout: .seconds(10))
    }

    /// How the flip host's association file is fetched for the entry that claims it: through the CDN, or
    /// from the host with `?mode=developer`, as iOS chooses.
    func aasaFetch(for entry: AssociatedDomain) -> HostedFetchOptions {
        HostedFetchOptions(source: .chosen(for: entry, cdnBase: cdnBase, port: port), trust: trust, timeout: .seconds(10))
    }
}

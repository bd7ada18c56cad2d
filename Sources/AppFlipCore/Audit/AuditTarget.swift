/// What part of a partner's App Flip integration a check looks at; the report groups checks by target, and
/// a target the audit was not pointed at has its checks skipped.
public enum AuditTarget: String, Sendable, Hashable, Codable, CaseIterable {
    case partnerApp = "partner-app"
    case authorizationEndpoint = "authorization-endpoint"
    case tokenEndpoint = "token-endpoint"
    case associationFile = "association-file"
    case androidAssociationFile = "android-association-file"
    case androidApp = "android-app"
    /// The partner's Android build artifact (`--app`): an APK, an AAB or a manifest.
    case androidArtifact = "android-artifact"
    /// The partner's iOS build artifacts (`--app`): an .ipa, a profile, an executable, an entitlements file.
    case iosArtifact = "ios-artifact"

    /// The heading the human report prints for the target.
    public var title: String {
        switch self {
        case .partnerApp: "Partner app, through appflipd"
        case .authorizationEndpoint: "Authorization endpoint"
        case .tokenEndpoint: "Token endpoint"
        case .associationFile: "Association file"
        case .androidAssociationFile: "Android association file (assetlinks.json)"
        case .androidApp: "Android app, through appflipd"
        case .androidArtifact: "Android app artifact (--app)"
        case .iosArtifact: "iOS app artifacts (--app)"
        }
    }

    /// What the command line needs for the target's checks to run, for the reason a skipped check gives.
    public var needs: String {
        switch self {
        case .partnerApp: "--link and --client-id"
        case .authorizationEndpoint: "--authorize-url (with --cookie, --header or --bearer)"
        case .tokenEndpoint: "--token-url and --client-secret, and a code from the partner app or the authorization endpoint"
        case .associationFile: "--aasa-file or --aasa-domain, and --app-id"
        case .androidAssociationFile: "--assetlinks-file or --assetlinks-domain, --android-package and --fingerprint"
        case .androidApp: "--android-package, --android-action, --redirect-uri, --caller-fingerprint, --client-id and --scope"
        case .androidArtifact: "--app with an APK, an AAB or an AndroidManifest.xml"
        case .iosArtifact: "--app with an .ipa, an embedded.mobileprovision, an executable or an .entitlements file"
        }
    }
}

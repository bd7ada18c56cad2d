public import AppFlipCore

extension CheckSpec {
    /// `app.android.flip-activity`.
    public static let appAndroidFlipActivity = CheckSpec(
        id: "app.android.flip-activity",
        target: .androidArtifact,
        title: "the artifact's App Flip activity takes --android-action from the Google app",
        rule:
            "An enabled activity of the artifact declares --android-action in an intent filter with android.intent.category.DEFAULT (which startActivity adds to the Google app's intent, limited to the package) and is exported, so that the Google app may start it.",
        source:
            "\(AuditSource.appFlipAndroid); AOSP ComponentResolver / IntentResolver (CATEGORY_DEFAULT), ActivityStarter (android:exported); appflipd's one resolution (AndroidIdentity.resolve)",
        level: .must,
        requires: [.androidArtifact]
    )
    /// `app.android.signing-key`.
    public static let appAndroidSigningKey = CheckSpec(
        id: "app.android.signing-key",
        target: .androidArtifact,
        title: "--fingerprint names the key that signs the APK",
        rule:
            "A --fingerprint is the SHA-256 fingerprint of a certificate that signs the APK now (the signer the newest platform verifies it by), not only a past key of its rotation lineage nor another key. An AAB is signed by its upload key, which Google Play replaces with the app-signing key: --fingerprint is then the app-signing key's and is not compared.",
        source:
            "apksigner verify --print-certs; Android SigningInfo (APK Signature Scheme v3 lineage); Play Console Help, Use Play App Signing (support.google.com/googleplay/android-developer/answer/9842756)",
        level: .must,
        requires: [.androidArtifact]
    )
    /// `app.android.statement-key`.
    public static let appAndroidStatementKey = CheckSpec(
        id: "app.android.statement-key",
        target: .androidArtifact,
        title: "each App Links host's statements name a key the app is signed with",
        rule:
            "On every App Links host whose assetlinks.json was read, a statement delegating handle_all_urls to the package names in sha256_cert_fingerprints a key Android compares (an APK's current key or a past key of its lineage; for an AAB or a manifest, --fingerprint, the app-signing key Google Play signs with), compared exactly.",
        source:
            "developer.android.com/training/app-links/verify-android-applinks (sha256_cert_fingerprints: your app's signing certificate); StatementService utils/StatementUtils.kt (the signing history); Play Console Help, Use Play App Signing",
        level: .must,
        requires: [.androidArtifact],
        establishes: .appLinksKey
    )
    /// `app.android.hosts-verified`.
    public static let appAndroidHostsVerified = CheckSpec(
        id: "app.android.hosts-verified",
        target: .androidArtifact,
        title: "Android 12+ verifies every host of the app's autoVerify filters",
        rule:
            "On Android 12 and later each host of an android:autoVerify filter is verified on its own; every such host is verified (pm get-app-links: verified) by Google's verifier and by StatementService, on Android 12 to 14 and on 15.",
        source:
            "developer.android.com/training/app-links/verify-android-applinks; AOSP DomainVerificationCollector, DomainVerificationInfo (pm get-app-links states); StatementService domain/DomainVerifier.kt, VerifyStatus.kt; docs/android.md",
        level: .must,
        requires: [.androidArtifact, .appLinksKey],
        establishes: .appLinksVerified
    )
    /// `app.android.legacy-all-hosts`.
    public static let appAndroidLegacyAllHosts = CheckSpec(
        id: "app.android.legacy-all-hosts",
        target: .androidArtifact,
        title: "Android 11 and earlier verify the app: every web host verifies",
        rule:
            "On Android 6 to 11 one android:autoVerify filter makes Android verify the hosts of every filter that takes web links, autoVerify or not, and the app is verified for all of them or for none: every such host verifies (pm get-app-link: always), by both verifiers. Judged once Android 12+ verifies the autoVerify hosts.",
        source:
            "developer.android.com/training/app-links/verify-android-applinks (Android 11 and lower: a matching Digital Asset Links file for all hosts); AOSP IntentFilterVerificationManager.verifyIntentFiltersIfNeeded; docs/android.md",
        level: .must,
        requires: [.androidArtifact, .appLinksKey, .appLinksVerified]
    )
    /// `app.ios.applinks-host`.
    public static let appIOSApplinksHost = CheckSpec(
        id: "app.ios.applinks-host",
        target: .iosArtifact,
        title: "the app claims the flip link's host as an applinks: associated domain",
        rule:
            "The associated domains the app claims (the entitlements signed into its executable, else its .entitlements file) hold an applinks: entry for the host of the flip link (--link), exactly or by a *. wildcard.",
        source:
            "Apple, Supporting associated domains; com.apple.developer.associated-domains (applinks:<fully qualified domain>); docs/routing.md",
        level: .must,
        requires: [.iosArtifact]
    )
    /// `app.ios.developer-mode`.
    public static let appIOSDeveloperMode = CheckSpec(
        id: "app.ios.developer-mode",
        target: .iosArtifact,
        title: "a distribution build does not claim the flip host in developer mode only",
        rule:
            "In an app signed for distribution (ad hoc, enterprise or App Store profile), the flip link's host is claimed by an applinks: entry without ?mode=developer: that mode is honoured only for development-signed apps on devices with Associated Domains Development turned on.",
        source: "Apple, Supporting associated domains (?mode=developer); Apple TN3125 (profile kinds); docs/routing.md",
        level: .must,
        requires: [.iosArtifact]
    )
    /// `app.ios.profile-expiry`.
    public static let appIOSProfileExpiry = CheckSpec(
        id: "app.ios.profile-expiry",
        target: .iosArtifact,
        title: "the provisioning profile has not expired",
        rule:
            "The provisioning profile's ExpirationDate is after now: iOS does not launch an app whose profile expired, and App Store Connect refuses a build signed with one.",
        source: "Apple TN3125, Inside Code Signing: Provisioning Profiles (ExpirationDate)",
        level: .must,
        requires: [.iosArtifact]
    )
    /// `app.ios.aasa-app-id`.
    public static let appIOSAASAAppID = CheckSpec(
        id: "app.ios.aasa-app-id",
        target: .iosArtifact,
        title: "the flip host's association file names the app's ID",
        rule:
            "The apple-app-site-association file of the flip link's host (hosted, or --aasa-file) loads, and its applinks details name the app ID the artifacts carry (the signed entitlements' application-identifier, else the .entitlements file's, else the profile's), team and bundle alike.",
        source: AASAFileCheck.appID.source,
        level: .must,
        requires: [.iosArtifact]
    )
    /// `app.ios.aasa-routes-link`.
    public static let appIOSAASARoutesLink = CheckSpec(
        id: "app.ios.aasa-routes-link",
        target: .iosArtifact,
        title: "the flip host's association file routes the flip link to the app",
        rule: "For the app's ID, the first component of the association file that matches the flip link is not an exclusion.",
        source: AASAFileCheck.urlDecision.source,
        level: .must,
        requires: [.iosArtifact]
    )
}

extension AuditCatalogue {
    /// The Android artifact's checks, in report order.
    static let androidArtifact: [CheckSpec] = [
        .appAndroidFlipActivity, .appAndroidSigningKey, .appAndroidStatementKey, .appAndroidHostsVerified, .appAndroidLegacyAllHosts,
    ]

    /// The iOS artifacts' checks, in report order.
    static let iosArtifact: [CheckSpec] = [
        .appIOSApplinksHost, .appIOSDeveloperMode, .appIOSProfileExpiry, .appIOSAASAAppID, .appIOSAASARoutesLink,
    ]
}

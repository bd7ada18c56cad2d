import AppFlipAudit
import AppFlipCore
import AppFlipHTTPClient
import AppFlipTestSupport
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Synchronization
import Testing

/// `appflip audit --app`: each cross-check of the partner's own artifacts against real files served over HTTPS
/// on 127.0.0.1, with artifacts built by Tests/AndroidArtifacts/build-app (aapt, apksigner) and
/// Tests/AppleArtifacts/make_ios_artifacts.py --app: a conforming artifact passes every check, and each broken
/// one fails exactly the check of the rule it breaks.
@Suite struct AppArtifactAuditTests {
    typealias Artifacts = AppArtifactAuditFixtures

    static let package = "com.example.partner"
    static let action = "com.example.partner.APP_FLIP"
    static let appID = "ABCDE12345.com.example.partner"
    static let link = try! RawURL("https://localhost/flip/go")

    static let androidChecks = AuditCatalogue.checks(of: .androidArtifact)
    static let iosChecks = AuditCatalogue.checks(of: .iosArtifact)

    /// What the server answers: the statement list at `/.well-known/assetlinks.json`, the association file
    /// at `/.well-known/apple-app-site-association` and under the CDN's `/a/v1/localhost`.
    struct Hosted: Sendable {
        var assetLinks: [UInt8] = []
        var aasa: [UInt8] = []
    }

    /// A statement list delegating the package's links to `fingerprints`.
    static func assetLinks(_ fingerprints: [String]) -> [UInt8] {
        let quoted = fingerprints.map { "\"\($0)\"" }.joined(separator: ",")
        return Array(
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":[\#(quoted)]}}]"#
                .utf8
        )
    }

    /// An association file naming `appID` with `components`.
    static func aasa(appID: String = appID, components: String = #"[{"/":"/flip/*"}]"#) -> [UInt8] {
        Array(#"{"applinks":{"details":[{"appIDs":["\#(appID)"],"components":\#(components)}]}}"#.utf8)
    }

    /// The audit of `files` against a server answering `hosted`, through the `Auditor` `appflip audit` runs.
    static func audit(
        _ files: [String],
        hosted: Hosted,
        action: String? = action,
        fingerprints: [String] = [],
        assetLinksFile: String? = nil
    ) async throws -> AuditReport {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let routes: @Sendable (String) -> TestHTTPResponse? = { path in
            switch path {
            case "/.well-known/assetlinks.json": hosted.assetLinks.isEmpty ? .whole(.notFound, [], []) : .file(hosted.assetLinks)
            case "/.well-known/apple-app-site-association", "/a/v1/localhost": .file(hosted.aasa)
            default: nil
            }
        }
        return try await TestHTTPSServer.with(identity: try fixture.authority.serverIdentity(for: ["localhost"]), routes: routes) { server in
            var auditor = Auditor()
            auditor.app = AppArtifactTarget(
                files: files,
                link: link,
                androidAction: action,
                fingerprints: fingerprints,
                assetLinksFile: assetLinksFile,
                cdnBase: server.cdnBase,
                port: server.port,
                trust: .caFile(fixture.caFile)
            )
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            let report = await auditor.run(httpClient: client)
            try await client.shutdown()
            return report
        }
    }

    static func describe(_ report: AuditReport) -> String {
        report.results.filter { [.androidArtifact, .iosArtifact].contains($0.check.target) }
            .map { "\($0.check.id) \($0.outcome) \($0.reason)" }.joined(separator: "\n")
    }

    // MARK: Android

    /// The conforming APK: signed by `next` rotated from `app`, its statements naming the past key `app`
    /// (Android compares the whole lineage), `--fingerprint` its current key.
    @Test func aConformingAPKPassesEveryAndroidCheck() async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit(
            [try await Artifacts.path("good.apk")],
            hosted: Hosted(assetLinks: Self.assetLinks([keys.app])),
            fingerprints: [keys.next]
        )
        #expect(report.checks(.pass).filter { $0.target == .androidArtifact } == Self.androidChecks, "\(Self.describe(report))")
        #expect(report.result(.appAndroidStatementKey).evidence.contains { $0.contains("\(keys.app) (past key)") })
        #expect(
            report.result(.appAndroidHostsVerified).evidence.contains(
                "localhost statement-service android-12: verified (statement /0 delegates handle_all_urls to com.example.partner)"
            )
        )
        #expect(report.exitStatus == 0)
    }

    /// The App Flip action in the activity's second filter (its first is the launcher's) is found there.
    @Test func theFlipActionIsFoundInAnyFilter() async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit(
            [try await Artifacts.path("second-filter.apk")],
            hosted: Hosted(assetLinks: Self.assetLinks([keys.app])),
            fingerprints: [keys.next]
        )
        #expect(report.result(.appAndroidFlipActivity).outcome == .pass, "\(Self.describe(report))")
    }

    @Test(arguments: [
        // The App Flip activity is declared android:exported="false".
        ("not-exported.apk", action, CheckSpec.appAndroidFlipActivity, "is not exported"),
        // Its filter lacks android.intent.category.DEFAULT.
        ("no-default.apk", action, .appAndroidFlipActivity, "lacks android.intent.category.DEFAULT"),
        // The console's action is another one.
        ("good.apk", "com.example.partner.OTHER_ACTION", .appAndroidFlipActivity, "no activity of com.example.partner handles the action"),
        // A second web host (127.0.0.1, whose certificate does not name it) that only Android 11 verifies.
        ("two-hosts.apk", action, .appAndroidLegacyAllHosts, "127.0.0.1"),
    ])
    func eachBrokenAPKFailsExactlyItsCheck(file: String, action: String, check: CheckSpec, says: String) async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit(
            [try await Artifacts.path(file)],
            hosted: Hosted(assetLinks: Self.assetLinks([keys.app])),
            action: action,
            fingerprints: [keys.next]
        )
        #expect(report.checks(.fail) == [check], "\(Self.describe(report))")
        #expect(report.result(check).reason.contains(says), "\(report.result(check).reason)")
        #expect(report.exitStatus == 2)
    }

    /// Android 12+ verifies only the autoVerify host, which verifies; Android 11 verifies both and the app for
    /// neither.
    @Test func androidElevenFailsEveryHostWhereTwelveVerifiesItsOwn() async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit(
            [try await Artifacts.path("two-hosts.apk")],
            hosted: Hosted(assetLinks: Self.assetLinks([keys.app])),
            fingerprints: [keys.next]
        )
        #expect(report.result(.appAndroidHostsVerified).outcome == .pass, "\(Self.describe(report))")
        let legacy = report.result(.appAndroidLegacyAllHosts)
        #expect(
            legacy.evidence.contains { $0.hasPrefix("localhost google android-11: none (Android 11 and earlier verify all hosts or none") },
            "\(legacy.evidence)"
        )
    }

    @Test func aPastKeyAsFingerprintFailsTheSigningKey() async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit(
            [try await Artifacts.path("good.apk")],
            hosted: Hosted(assetLinks: Self.assetLinks([keys.app])),
            fingerprints: [keys.app]
        )
        #expect(report.checks(.fail) == [.appAndroidSigningKey], "\(Self.describe(report))")
        #expect(report.result(.appAndroidSigningKey).reason.contains("is a past key of the APK's rotation lineage"))
    }

    /// Statements naming another key fail the statement check once; the verification checks that need it are
    /// skipped, naming it.
    @Test func statementsNamingAnotherKeyFailTheStatementKeyOnce() async throws {
        let keys = try await Artifacts.keys()
        let other = String(repeating: "AB:", count: 31) + "AB"
        let report = try await Self.audit(
            [try await Artifacts.path("good.apk")],
            hosted: Hosted(assetLinks: Self.assetLinks([other])),
            fingerprints: [keys.next]
        )
        #expect(report.checks(.fail) == [.appAndroidStatementKey], "\(Self.describe(report))")
        #expect(report.result(.appAndroidHostsVerified).reason == "needs app.android.statement-key")
        #expect(report.result(.appAndroidLegacyAllHosts).reason == "needs app.android.statement-key")
    }

    /// No statement list at the host (404): Android 12+ does not verify it; Android 11's check, which needs
    /// it, is skipped naming it.
    @Test func aHostWithoutItsFileFailsHostsVerified() async throws {
        let keys = try await Artifacts.keys()
        let report = try await Self.audit([try await Artifacts.path("good.apk")], hosted: Hosted(), fingerprints: [keys.next])
        #expect(report.checks(.fail) == [.appAndroidHostsVerified], "\(Self.describe(report))")
        #expect(
            report.result(.appAndroidHostsVerified).reason.contains("localhost google android-12: 1024"),
            "\(report.result(.appAndroidHostsVerified).reason)"
        )
        #expect(report.result(.appAndroidLegacyAllHosts).reason == "needs app.android.hosts-verified")
    }

    /// An AAB is signed by its upload key: statements naming only it fail, saying Play re-signs; statements
    /// naming --fingerprint (the app-signing key) pass. Its hosts' file is the local --assetlinks-file.
    @Test func anAABIsHeldToTheAppSigningKeyNotItsUploadKey() async throws {
        let bundle = try await Artifacts.bundle()
        let appSigning = String(repeating: "5A:", count: 31) + "5A"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-aab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploadOnly = folder.appendingPathComponent("upload.json").path
        let appSigningOnly = folder.appendingPathComponent("app-signing.json").path
        try Data(Self.assetLinks([bundle.uploadKey])).write(to: URL(fileURLWithPath: uploadOnly))
        try Data(Self.assetLinks([appSigning])).write(to: URL(fileURLWithPath: appSigningOnly))

        let broken = try await Self.audit([bundle.path], hosted: Hosted(), action: nil, fingerprints: [appSigning], assetLinksFile: uploadOnly)
        #expect(broken.checks(.fail) == [.appAndroidStatementKey], "\(Self.describe(broken))")
        #expect(broken.result(.appAndroidStatementKey).reason.contains("the AAB's upload key: Google Play re-signs the app"))
        #expect(broken.result(.appAndroidSigningKey).outcome == .skipped)

        let conforming = try await Self.audit(
            [bundle.path],
            hosted: Hosted(),
            action: nil,
            fingerprints: [appSigning],
            assetLinksFile: appSigningOnly
        )
        #expect(conforming.checks(.fail).isEmpty, "\(Self.describe(conforming))")
        #expect(conforming.result(.appAndroidStatementKey).outcome == .pass)
        #expect(conforming.result(.appAndroidHostsVerified).outcome == .pass)
    }

    // MARK: iOS

    @Test func aConformingIPAPassesEveryIOSCheck() async throws {
        let report = try await Self.audit([try await Artifacts.path("good.ipa")], hosted: Hosted(aasa: Self.aasa()))
        #expect(report.checks(.pass).filter { $0.target == .iosArtifact } == Self.iosChecks, "\(Self.describe(report))")
        #expect(report.exitStatus == 0)
    }

    @Test(arguments: [
        // The entitlements claim another host.
        ("other-host.ipa", Self.aasa(), CheckSpec.appIOSApplinksHost, "no applinks: entry claims localhost"),
        // An App Store build claims the flip host only with ?mode=developer.
        ("developer-mode.ipa", Self.aasa(), .appIOSDeveloperMode, "only by applinks:localhost?mode=developer"),
        // The profile expired.
        ("expired.ipa", Self.aasa(), .appIOSProfileExpiry, "expired"),
        // The association file names another team's app.
        (
            "good.ipa", Self.aasa(appID: "ZZZZZ99999.com.example.partner"), .appIOSAASAAppID,
            "ABCDE12345.com.example.partner is not in applinks details"
        ),
        // The association file excludes the flip path for the app.
        ("good.ipa", Self.aasa(components: #"[{"/":"/flip/*","exclude":true}]"#), .appIOSAASARoutesLink, "exclude"),
    ])
    func eachBrokenIOSArtifactFailsExactlyItsCheck(file: String, aasa: [UInt8], check: CheckSpec, says: String) async throws {
        let report = try await Self.audit([try await Artifacts.path(file)], hosted: Hosted(aasa: aasa))
        #expect(report.checks(.fail) == [check], "\(Self.describe(report))")
        #expect(report.result(check).reason.contains(says), "\(report.result(check).reason)")
        #expect(report.exitStatus == 2)
    }

    /// A project's .entitlements file with Xcode's build settings is not judged as written: Xcode expands them
    /// when it signs.
    @Test func anEntitlementsFileWithBuildSettingsIsNotJudged() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-entitlements-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Partner.entitlements").path
        let entitlements: [String: Any] = [
            "application-identifier": "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)",
            "com.apple.developer.associated-domains": ["applinks:$(FLIP_HOST)"],
        ]
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0).write(to: URL(fileURLWithPath: path))
        let report = try await Self.audit([path], hosted: Hosted(aasa: Self.aasa()))
        #expect(report.checks(.fail).isEmpty, "\(Self.describe(report))")
        #expect(report.result(.appIOSApplinksHost).reason.contains("uses build settings"), "\(report.result(.appIOSApplinksHost).reason)")
        #expect(report.result(.appIOSAASAAppID).reason.hasPrefix("no explicit app ID among the artifacts"))
    }

    // MARK: Blame

    /// An artifact the audit cannot read is its own input failing: could not run, exit status 1.
    @Test func anUnreadableArtifactCouldNotRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-truncated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let truncated = folder.appendingPathComponent("truncated.apk").path
        let good = try Data(contentsOf: URL(fileURLWithPath: try await Artifacts.path("good.apk")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: truncated))
        let report = try await Self.audit([truncated], hosted: Hosted())
        #expect(report.exitStatus == 1, "\(Self.describe(report))")
        #expect(report.checks(.fail).isEmpty)
        #expect(report.unreachable.contains { $0.hasPrefix("--app \(truncated) cannot be read: ") }, "\(report.unreachable)")
        #expect(report.results.filter { $0.check.target == .androidArtifact }.allSatisfy { $0.outcome == .skipped })
    }

    /// With --app, --android-action alone checks the artifact's activity and --fingerprint needs no
    /// association file; without it, both stay usage errors.
    @Test func theArtifactRelaxesTheOptionsItFeeds() async throws {
        let apk = try await Artifacts.path("good.apk")
        let fingerprint = try await Artifacts.keys().next
        let without = try await TestCommand.run("appflip", ["audit", "--android-action", Self.action, "--fingerprint", fingerprint])
        #expect(without.status == 64, "\(without.standardError)")
        let withArtifact = try await TestCommand.run(
            "appflip",
            ["audit", "--app", apk, "--android-action", "com.example.partner.OTHER_ACTION", "--fingerprint", fingerprint, "--port", "1", "--json"]
        )
        // The flip activity fails; the hosts' files cannot be fetched (nothing listens on port 1).
        #expect(withArtifact.status == 2, "\(withArtifact.standardError)")
        #expect(withArtifact.standardOutput.contains("no activity of com.example.partner handles the action"))
    }

    /// `appflip audit --app` on the command line: the options feed the target, and a broken artifact exits 2.
    @Test func theCommandLineRunsTheArtifactChecks() async throws {
        let fixture = try HostedTestFixture()
        defer { fixture.remove() }
        let aasa = Self.aasa()
        let routes: @Sendable (String) -> TestHTTPResponse? = { $0 == "/a/v1/localhost" ? .file(aasa) : nil }
        try await TestHTTPSServer.with(identity: try fixture.authority.serverIdentity(for: ["localhost"]), routes: routes) { server in
            let arguments = [
                "audit", "--app", try await Artifacts.path("other-host.ipa"), "--link", Self.link.description, "--cdn-base", server.cdnBase,
                "--ca-file", fixture.caFile, "--json",
            ]
            let outcome = try await TestCommand.run("appflip", arguments)
            #expect(outcome.status == 2, "\(outcome.standardError)")
            guard case .object(let report) = try JSONValue(parsing: Array(outcome.standardOutput.utf8)), case .array(let results)? = report["results"]
            else {
                Issue.record("not a JSON report: \(outcome.standardOutput)")
                return
            }
            let failed = results.compactMap { result -> String? in
                guard case .object(let fields) = result, fields["outcome"] == .string("fail"), case .string(let id)? = fields["id"] else {
                    return nil
                }
                return id
            }
            #expect(failed == ["app.ios.applinks-host"], "\(outcome.standardOutput)")
        }
    }
}

/// The artifacts of ``AppArtifactAuditTests``, built once per test process into a temporary folder: APKs from
/// the manifests below with Tests/AndroidArtifacts/build-app, .ipa files with
/// Tests/AppleArtifacts/make_ios_artifacts.py --app, and the AAB of Tests/AndroidArtifacts/make-test-artifacts.
enum AppArtifactAuditFixtures {
    /// The two signing keys' fingerprints: `app`, and `next`, rotated from it.
    struct Keys: Sendable {
        let app: String
        let next: String
    }

    private static let built = Task { try await build() }
    private static let aab = Task { try await buildBundle() }

    static func path(_ name: String) async throws -> String { try await built.value.folder + "/" + name }

    static func keys() async throws -> Keys { try await built.value.keys }

    /// The AAB and its upload key's fingerprint.
    static func bundle() async throws -> (path: String, uploadKey: String) { try await aab.value }

    /// A manifest of the partner with an App Flip activity and an App Links filter for localhost; `flip` is
    /// the App Flip activity's attributes and filter body, `links` more filters for the link activity.
    static func manifest(flip: String = defaultFlip, links: String = "") -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.partner">
            <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="33" />
            <application android:label="Partner">
                \(flip)
                <activity android:name=".LinkActivity" android:exported="true">
                    <intent-filter android:autoVerify="true">
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="https" android:host="localhost" android:pathPrefix="/flip/" />
                    </intent-filter>
                    \(links)
                </activity>
            </application>
        </manifest>
        """
    }

    static let defaultFlip = flipActivity(exported: true, categories: ["android.intent.category.DEFAULT"])

    static func flipActivity(exported: Bool, categories: [String]) -> String {
        """
        <activity android:name=".AppFlipActivity" android:exported="\(exported)">
            <intent-filter>
                <action android:name="com.example.partner.APP_FLIP" />
                \(categories.map { "<category android:name=\"\($0)\" />" }.joined())
            </intent-filter>
        </activity>
        """
    }

    /// The App Flip activity is also the launcher: its action is in its second filter.
    static let launcherThenFlip = """
        <activity android:name=".AppFlipActivity" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
            <intent-filter>
                <action android:name="com.example.partner.APP_FLIP" />
                <category android:name="android.intent.category.DEFAULT" />
            </intent-filter>
        </activity>
        """

    /// A web filter without autoVerify, for a host only Android 11 verifies.
    static let plainWebFilter = """
        <intent-filter>
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="127.0.0.1" />
        </intent-filter>
        """

    private static func build() async throws -> (folder: String, keys: Keys) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appflip-app-artifacts-\(getpid())").path
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let apks = [
            ("good.apk", manifest()),
            ("not-exported.apk", manifest(flip: flipActivity(exported: false, categories: ["android.intent.category.DEFAULT"]))),
            ("no-default.apk", manifest(flip: flipActivity(exported: true, categories: []))),
            ("two-hosts.apk", manifest(links: plainWebFilter)),
            ("second-filter.apk", manifest(flip: launcherThenFlip)),
        ]
        for (name, text) in apks {
            let manifest = folder + "/" + name + ".xml"
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
            try await run(Repository.path("Tests/AndroidArtifacts/build-app"), ["--rotate", manifest, folder + "/" + name, folder + "/keys"])
        }
        let ipas = [
            ("good.ipa", "appstore", ["applinks:localhost"]),
            ("other-host.ipa", "appstore", ["applinks:partner.example"]),
            ("developer-mode.ipa", "appstore", ["applinks:localhost?mode=developer"]),
            ("expired.ipa", "expired", ["applinks:localhost"]),
        ]
        for (name, kind, domains) in ipas {
            try await run(
                "/usr/bin/env",
                [
                    "python3", Repository.path("Tests/AppleArtifacts/make_ios_artifacts.py"), "--app", folder + "/" + name,
                    AppArtifactAuditTests.appID, kind,
                ]
                    + domains
            )
        }
        let key = { (name: String) in
            try String(contentsOfFile: folder + "/keys/\(name).sha256", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (folder, Keys(app: try key("app"), next: try key("next")))
    }

    /// make-test-artifacts' AAB, built into a folder of its own (it rebuilds only when its scripts change).
    private static func buildBundle() async throws -> (path: String, uploadKey: String) {
        let folder = Repository.path(".build/app-audit-android-artifacts")
        try await run(Repository.path("Tests/AndroidArtifacts/make-test-artifacts"), [folder])
        let printed = try await run("/usr/bin/keytool", ["-printcert", "-file", folder + "/upload.cer"])
        guard let line = printed.split(separator: "\n").first(where: { $0.contains("SHA256:") }) else {
            throw Failure(message: "keytool printed no SHA256 line: \(printed)")
        }
        return (folder + "/app.aab", String(line.split(separator: " ").last ?? ""))
    }

    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let outcome = try await TestCommandRunner.run(executable, arguments, within: .seconds(600))
        guard outcome.status == 0 else {
            throw Failure(message: "\(executable) \(arguments.joined(separator: " ")) failed: \(outcome.standardOutput)\(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

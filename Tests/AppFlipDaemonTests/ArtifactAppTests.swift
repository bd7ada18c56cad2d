import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTestSupport
import AppFlipTesting
import FoundationEssentials
import Glibc
import Testing

/// App files that name a build artifact: the real `appflipd` reads it with the `appflip` beside it, routes by
/// what it declares as it routes by filters written by hand, shows it in `apps` and `explain`, refuses alone an
/// app whose artifact cannot be read or disagrees with the file, and reads it again on SIGHUP.
@Suite(.serialized) struct ArtifactAppTests {
    static let flipCategory = "android.intent.category.DEFAULT"
    static let linkCategories = ["android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"]
    static let view = "android.intent.action.VIEW"

    static func fingerprint(_ byte: Int) -> String {
        Array(repeating: String(byte, radix: 16, uppercase: true).leftPadded(to: 2), count: 32).joined(separator: ":")
    }

    // MARK: The property: an artifact routes as its filters written by hand

    /// One `<intent-filter>` for links, as the model writes it both ways.
    struct Filter {
        var autoVerify: Bool
        var actions: [String]
        var categories: [String]
        var schemes: [String]
        var hosts: [(host: String, port: Int?)]
        /// `(attribute, pattern)`: `path`, `pathPrefix`, `pathPattern`, `pathAdvancedPattern`, `pathSuffix`.
        var paths: [(String, String)]

        var manifest: String {
            var lines = ["<intent-filter\(autoVerify ? #" android:autoVerify="true""# : "")>"]
            lines += actions.map { #"<action android:name="\#($0)" />"# }
            lines += categories.map { #"<category android:name="\#($0)" />"# }
            lines += schemes.map { #"<data android:scheme="\#($0)" />"# }
            lines += hosts.map { #"<data android:host="\#($0.host)"\#($0.port.map { #" android:port="\#($0)""# } ?? "") />"# }
            lines += paths.map { #"<data android:\#($0.0)="\#($0.1)" />"# }
            return lines.joined(separator: "\n") + "\n</intent-filter>"
        }

        var json: String {
            let strings = { (values: [String]) in "[" + values.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
            var data = schemes.map { #"{"scheme":"\#($0)"}"# }
            data += hosts.map { #"{"host":"\#($0.host)"\#($0.port.map { #","port":\#($0)"# } ?? "")}"# }
            data += paths.map { #"{"\#($0.0)":"\#($0.1)"}"# }
            return
                #"{"autoVerify":\#(autoVerify),"actions":\#(strings(actions)),"categories":\#(strings(categories)),"data":[\#(data.joined(separator: ","))]}"#
        }
    }

    /// One app: an App Flip activity and an activity with the link filters.
    struct App {
        var index: Int
        var filters: [Filter]
        var package: String { "com.example.app\(index)" }
        var fingerprint: String { ArtifactAppTests.fingerprint(0x10 + index) }

        var manifest: String {
            """
            <?xml version="1.0" encoding="utf-8"?>
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="\(package)">
            <application>
            <activity android:name=".AppFlipActivity" android:exported="true">
            <intent-filter>
            <action android:name="\(package).APP_FLIP" />
            <category android:name="\(ArtifactAppTests.flipCategory)" />
            </intent-filter>
            </activity>
            <activity android:name=".LinkActivity" android:exported="true">
            \(filters.map(\.manifest).joined(separator: "\n"))
            </activity>
            </application>
            </manifest>
            """
        }

        /// The app file that names the manifest: the fingerprints by hand, as a manifest carries none.
        var artifactFile: String {
            #"{"appID":"T.app\#(index)","handler":{"builtin":"accept"},"artifact":"../app\#(index).xml","android":{"fingerprints":["\#(fingerprint)"],"assetLinks":{"a.test":"../a.test.json"}}}"#
        }

        /// The app file with the same app written by hand.
        var handWrittenFile: String {
            let activity =
                #"{"name":".AppFlipActivity","actions":["\#(package).APP_FLIP"],"categories":["\#(ArtifactAppTests.flipCategory)"],"exported":true}"#
            let filters = "[" + self.filters.map(\.json).joined(separator: ",") + "]"
            return
                #"{"appID":"T.app\#(index)","handler":{"builtin":"accept"},"android":{"package":"\#(package)","fingerprints":["\#(fingerprint)"],"activities":[\#(activity)],"intentFilters":\#(filters),"assetLinks":{"a.test":"../a.test.json"}}}"#
        }
    }

    static let schemes = ["https", "http", "myapp"]
    static let hosts = ["a.test", "b.test", "*.c.test"]
    static let paths = [
        ("path", "/x"), ("pathPrefix", "/app/"), ("pathPattern", "/item/.*/d"), ("pathAdvancedPattern", "/p/[0-9]+"), ("pathSuffix", ".html"),
    ]

    static func randomFilter(_ random: inout SplitMix64, first: Bool) -> Filter {
        func some<T>(_ values: [T], atLeast: Int) -> [T] {
            let chosen = values.filter { _ in Bool.random(using: &random) }
            return chosen.count >= atLeast ? chosen : Array(values.prefix(atLeast))
        }
        if first {
            // Every app asks to verify a.test, whose statement list names them all.
            return Filter(
                autoVerify: true,
                actions: [view],
                categories: linkCategories,
                schemes: ["https"],
                hosts: [("a.test", nil)],
                paths: some(paths, atLeast: 0)
            )
        }
        return Filter(
            autoVerify: Bool.random(using: &random),
            actions: Bool.random(using: &random) ? [view] : [view, "com.example.OTHER"],
            categories: some(linkCategories, atLeast: 0),
            schemes: some(schemes, atLeast: 1),
            hosts: some(hosts, atLeast: 0).map { ($0, Int.random(in: 0..<4, using: &random) == 0 ? 8443 : nil) },
            paths: some(paths, atLeast: 0)
        )
    }

    static func randomURL(_ random: inout SplitMix64) -> String {
        let hosts = ["a.test", "b.test", "x.c.test", "c.test", "other.test"]
        let paths = ["/", "/x", "/x/y", "/app/1", "/item/7/d", "/p/12", "/p/x", "/index.html", "/q"]
        let port = Int.random(in: 0..<4, using: &random) == 0 ? ":8443" : ""
        // Routing takes https links; an http one is refused alike both ways.
        let scheme = Int.random(in: 0..<20, using: &random) == 0 ? "http" : "https"
        return "\(scheme)://\(hosts.randomElement(using: &random)!)\(port)\(paths.randomElement(using: &random)!)"
    }

    /// A statement list for a.test that delegates it to every app.
    static func statementList(_ apps: [App]) -> String {
        let statements = apps.map { app in
            #"{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"\#(app.package)","sha256_cert_fingerprints":["\#(app.fingerprint)"]}}"#
        }
        return "[" + statements.joined(separator: ",") + "]"
    }

    /// A daemon directory, as `TestDaemon.make` makes it, with `files` written into it (paths relative to it).
    static func daemon(_ files: [String: String], configuration: DaemonConfiguration = DaemonConfiguration()) throws -> TestDaemon {
        let daemon = try TestDaemon.make(configuration: configuration)
        for (name, text) in files { try TestDirectory.write(text, to: daemon.directory + "/" + name, mode: 0o644) }
        return daemon
    }

    /// What a daemon decides for `urls`, and the apps it lists: the explanations, the `open` outcomes on the
    /// Android device it plays, and each app's Android identity and states.
    static func decisions(of daemon: TestDaemon, urls: [String]) async throws -> [String] {
        let client = try await daemon.connect()
        var decisions: [String] = []
        for app in try await client.apps() {
            decisions.append("\(app.appID) \(String(describing: app.android)) \(String(describing: app.domainVerification))")
        }
        for url in urls {
            do {
                decisions.append("\(url) \(try await client.explain(url))")
            } catch let error as ErrorBody {
                decisions.append("\(url) \(error.code) \(error.message)")
            }
            let opened: String
            do {
                let result = try await client.open(OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(platform: .android)))
                opened = "\(result.status) \(result.app ?? "-")"
            } catch let error as ErrorBody {
                opened = "\(error.code) \(error.message)"
            }
            decisions.append("\(url) \(opened)")
        }
        return decisions
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func routingFromAnArtifactEqualsRoutingFromTheSameFiltersWrittenByHand(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let apps = (0..<5).map { index in
            App(
                index: index,
                filters: [Self.randomFilter(&random, first: true)]
                    + (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.randomFilter(&random, first: false) }
            )
        }
        let urls = (0..<60).map { _ in Self.randomURL(&random) }
        var configuration = DaemonConfiguration()
        configuration.platform = .android
        var artifactFiles = ["a.test.json": Self.statementList(apps)]
        var handWrittenFiles = artifactFiles
        for app in apps {
            artifactFiles["app\(app.index).xml"] = app.manifest
            artifactFiles["apps.d/app\(app.index).json"] = app.artifactFile
            handWrittenFiles["apps.d/app\(app.index).json"] = app.handWrittenFile
        }
        let fromArtifacts = try Self.daemon(artifactFiles, configuration: configuration)
        defer { TestDirectory.remove(fromArtifacts.directory) }
        let byHand = try Self.daemon(handWrittenFiles, configuration: configuration)
        defer { TestDirectory.remove(byHand.directory) }

        let (artifactDecisions, artifactExit) = try await TestDaemonProcess.run(fromArtifacts) { _ in
            let listed = try await fromArtifacts.connect().apps()
            #expect(listed.compactMap { $0.artifact?.kind } == Array(repeating: "source-manifest", count: apps.count))
            return try await Self.decisions(of: fromArtifacts, urls: urls)
        }
        let (handDecisions, _) = try await TestDaemonProcess.run(byHand) { _ in try await Self.decisions(of: byHand, urls: urls) }
        #expect(artifactExit.status == 0)
        let refusedAny = artifactExit.standardError.contains("app file refused")
        #expect(!refusedAny, "\(artifactExit.standardError)")
        #expect(artifactDecisions.count == handDecisions.count)
        for (fromArtifact, written) in zip(artifactDecisions, handDecisions) where fromArtifact != written {
            Issue.record("seed \(seed): from the artifact\n\(fromArtifact)\nwritten by hand\n\(written)")
        }
    }

    // MARK: The test project's own artifacts

    /// The test project's manifest (Tests/AndroidArtifacts/project/AndroidManifest.xml) written by hand, as the
    /// device sees it: `@string/link_host` is links.example.com, `@string/localized_host` varies by locale and is
    /// no host at all, and the disabled alias takes nothing.
    static let projectFilters = [
        IntentFilter(
            actions: [view],
            categories: linkCategories,
            autoVerify: true,
            schemes: ["https"],
            authorities: [.init(host: "links.example.com"), .init(host: "flip.example.com", port: 8443)],
            paths: [
                try! PatternMatcher("/flip", kind: .literal), try! PatternMatcher("/app/", kind: .prefix),
                try! PatternMatcher("/item/.*/details", kind: .simpleGlob),
            ]
        ),
        IntentFilter(actions: [view], categories: linkCategories, schemes: ["https"], authorities: []),
    ]
    static let projectActivities = [
        AndroidActivity(
            name: ".MainActivity",
            actions: ["android.intent.action.MAIN"],
            categories: ["android.intent.category.LAUNCHER"],
            exported: true
        ),
        AndroidActivity(name: ".AppFlipActivity", actions: ["com.example.partner.APP_FLIP"], exported: true),
    ]
    /// The bundle's manifest (project/bundle/manifest.txtpb) written by hand.
    static let bundleFilters = [
        IntentFilter(
            actions: [view],
            categories: linkCategories,
            autoVerify: true,
            schemes: ["https"],
            authorities: [.init(host: "links.example.com")],
            paths: [
                try! PatternMatcher(".pdf", kind: .suffix), try! PatternMatcher("/order/[0-9]+", kind: .advancedGlob),
                try! PatternMatcher("/app/", kind: .prefix),
            ]
        )
    ]

    /// A certificate's SHA-256 fingerprint as `openssl x509 -fingerprint` prints it: upper-case pairs, colons.
    static func certificateFingerprint(_ certificate: String) async throws -> String {
        let outcome = try await TestCommandRunner.run(
            "/usr/bin/openssl",
            ["x509", "-inform", "DER", "-in", certificate, "-noout", "-fingerprint", "-sha256"]
        )
        return String((outcome.standardOutput.split(separator: "=").last ?? "").filter { !$0.isWhitespace })
    }

    static let projectURLs = [
        "https://links.example.com/flip", "https://links.example.com/app/1", "https://links.example.com/item/7/details",
        "https://links.example.com/order/12", "https://links.example.com/doc.pdf", "https://links.example.com/other",
        "https://flip.example.com:8443/flip", "https://flip.example.com/flip", "https://en.example.com/anything",
        "https://alias.example.com/", "http://links.example.com/flip",
    ]

    @Test(arguments: ["app-rotated.apk", "app.aab"])
    func theTestProjectsArtifactsRouteAsTheirManifestsWrittenByHand(artifact: String) async throws {
        let path = try await AndroidTestArtifacts.path(artifact)
        let isBundle = artifact.hasSuffix(".aab")
        // An APK's fingerprints are its own, its lineage oldest first (old, rotated to new); a bundle's are the app
        // signing key's, by hand.
        let fingerprints =
            isBundle
            ? [Self.fingerprint(0xAB)]
            : [
                try await Self.certificateFingerprint(AndroidTestArtifacts.path("old.cer")),
                try await Self.certificateFingerprint(AndroidTestArtifacts.path("new.cer")),
            ]
        let identity = AndroidIdentity(
            package: "com.example.partner",
            fingerprints: fingerprints,
            activities: isBundle ? [Self.projectActivities[1]] : Self.projectActivities,
            intentFilters: isBundle ? Self.bundleFilters : Self.projectFilters
        )
        let handWritten = String(decoding: try JSONEncoder().encode(identity), as: UTF8.self)
        let bundleFingerprints = isBundle ? #","android":{"fingerprints":["\#(Self.fingerprint(0xAB))"]}"# : ""
        var configuration = DaemonConfiguration()
        configuration.platform = .android
        let fromArtifact = try Self.daemon(
            ["apps.d/partner.json": #"{"appID":"T.partner","handler":{"builtin":"accept"},"artifact":"\#(path)"\#(bundleFingerprints)}"#],
            configuration: configuration
        )
        defer { TestDirectory.remove(fromArtifact.directory) }
        let byHand = try Self.daemon(
            ["apps.d/partner.json": #"{"appID":"T.partner","handler":{"builtin":"accept"},"android":\#(handWritten)}"#],
            configuration: configuration
        )
        defer { TestDirectory.remove(byHand.directory) }
        let (artifactDecisions, _) = try await TestDaemonProcess.run(fromArtifact) { _ in
            let listed = try await fromArtifact.connect().apps()
            #expect(listed.first?.android == identity)
            #expect(listed.first?.artifact == AppArtifact(file: path, kind: isBundle ? "aab" : "apk"))
            return try await Self.decisions(of: fromArtifact, urls: Self.projectURLs)
        }
        let (handDecisions, _) = try await TestDaemonProcess.run(byHand) { _ in try await Self.decisions(of: byHand, urls: Self.projectURLs) }
        #expect(artifactDecisions == handDecisions)
    }

    // MARK: apps, explain and open over the socket

    @Test func anArtifactBackedAppIsRoutedAndShownByAppsAndExplain() async throws {
        let path = try await AndroidTestArtifacts.path("app-rotated.apk")
        let old = try await Self.certificateFingerprint(AndroidTestArtifacts.path("old.cer"))
        let new = try await Self.certificateFingerprint(AndroidTestArtifacts.path("new.cer"))
        // The statement list names the old key: Android matches a statement against past keys too.
        let list =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.partner","sha256_cert_fingerprints":["\#(old)"]}}]"#
        let daemon = try Self.daemon([
            "links.json": list,
            "apps.d/partner.json":
                #"{"appID":"T.partner","handler":{"builtin":"accept"},"artifact":"\#(path)","android":{"assetLinks":{"links.example.com":"../links.json"}}}"#,
        ])
        defer { TestDirectory.remove(daemon.directory) }
        let (result, exit) = try await TestDaemonProcess.run(daemon) { _ in
            let client = try await daemon.connect()
            let app = try #require(try await client.apps().first)
            #expect(app.appID == "T.partner")
            #expect(app.artifact == AppArtifact(file: path, kind: "apk"))
            #expect(app.android?.package == "com.example.partner")
            #expect(app.android?.fingerprints == [old, new])
            #expect(app.android?.intentFilters == Self.projectFilters)
            #expect(app.domainVerification?.hosts.map { "\($0.host) \($0.state)" } == ["links.example.com verified", "flip.example.com none"])
            let explained = try await client.explain("https://links.example.com/app/1")
            #expect(explained.android?.decision == .match)
            #expect(explained.android?.apps == ["T.partner"])
            #expect(explained.android?.rule == "/android/intentFilters/0")
            let opened = try await client.open(
                OpenRequest(activity: Activity(webpageURL: "https://links.example.com/app/1"), options: OpenOptions(platform: .android))
            )
            #expect(opened.status == .handled)
            #expect(opened.app == "T.partner")
            let listed = try await TestCommand.run("appflip", ["apps", "--socket", daemon.socketPath])
            #expect(listed.standardOutput.contains("  android com.example.partner  (from the apk \(path))\n"), "\(listed.standardOutput)")
            #expect(listed.standardOutput.contains("      links.example.com: verified  statement /0 delegates handle_all_urls"))
            // flip.example.com has no statement list: unverified, so its links open in the browser.
            return try await client.explain("https://flip.example.com:8443/flip").android?.decision
        }
        #expect(result == .browser)
        #expect(exit.status == 0)
    }

    // MARK: Refused alone

    /// A script that stands in for `appflip`.
    static func inspector(_ body: String) throws -> (directory: String, path: String) {
        let directory = try TestDirectory.make()
        try TestDirectory.write("#!/bin/sh\n\(body)\n", to: directory + "/appflip", mode: 0o755)
        return (directory, directory + "/appflip")
    }

    /// Each way an artifact can fail refuses its app alone, with the member and why; the other app is served,
    /// and the journal says so.
    @Test(arguments: [
        ("missing", "", "missing.apk", "app inspect cannot read "),
        ("unreadable", "", "garbage.apk", "not an artifact app inspect reads"),
        ("truncated", "", "truncated.apk", "app inspect cannot read "),
        ("timeout", "exec sleep 30", "garbage.apk", "within 0.5 seconds and was killed (artifactTimeoutSeconds)"),
        ("not JSON", "echo 'Segmentation fault'", "garbage.apk", "printed no report for"),
        ("JSON without a report", #"echo '{"platform":"android"}'"#, "garbage.apk", "no `kind`"),
        ("too much", "head -c 9000000 /dev/zero", "garbage.apk", "printed more than 8388608 bytes"),
        ("no inspector", "MISSING", "garbage.apk", "cannot run "),
        ("error output flood", "head -c 100000 /dev/zero >&2", "garbage.apk", "output exceeded the limit of 4096 bytes"),
    ])
    func anArtifactThatFailsRefusesItsAppAlone(name: String, script: String, artifact: String, message: String) async throws {
        var configuration = DaemonConfiguration()
        var scriptDirectory: String?
        if script == "MISSING" {
            configuration.appflipPath = "/nonexistent/appflip"
        } else if !script.isEmpty {
            let inspector = try Self.inspector(script)
            scriptDirectory = inspector.directory
            configuration.appflipPath = inspector.path
            configuration.artifactTimeoutSeconds = 0.5
        }
        defer { scriptDirectory.map(TestDirectory.remove) }
        let daemon = try Self.daemon(
            [
                "garbage.apk": "not an artifact",
                "truncated.apk": "PK\u{03}\u{04} a zip cut short",
                "apps.d/good.json":
                    #"{"appID":"T.good","handler":{"builtin":"accept"},"android":{"package":"com.example.good","fingerprints":["\#(Self.fingerprint(1))"]}}"#,
                "apps.d/partner.json": #"{"appID":"T.partner","handler":{"builtin":"accept"},"artifact":"../\#(artifact)"}"#,
            ],
            configuration: configuration
        )
        defer { TestDirectory.remove(daemon.directory) }
        let (result, exit) = try await TestDaemonProcess.run(daemon) { _ in
            guard case .apps(let result) = try await daemon.connect().request(.apps) else { throw ClientError.unexpectedReply(.apps) }
            return result
        }
        #expect(result.apps.map(\.appID) == ["T.good"], "\(name)")
        let refused = try #require(result.refused.first, "\(name)")
        #expect(result.refused.count == 1)
        #expect(refused.source == daemon.directory + "/apps.d/partner.json")
        #expect(refused.field == "artifact")
        #expect(refused.message.contains(message), "\(name): \(refused.message)")
        #expect(refused.message.contains(daemon.directory + "/apps.d/../\(artifact)"), "\(name): \(refused.message)")
        #expect(exit.standardError.contains("app file refused; the other apps are served: \(daemon.directory)/apps.d/partner.json: `artifact`: "))
    }

    /// A member written by hand beside an artifact agrees with it or refuses the app, naming the member; each app
    /// file is refused alone.
    @Test func aMemberWrittenByHandThatDisagreesWithTheArtifactRefusesItsApp() async throws {
        let apk = try await AndroidTestArtifacts.path("app-rotated.apk")
        let aab = try await AndroidTestArtifacts.path("app.aab")
        let manifest = try await AndroidTestArtifacts.path("source-AndroidManifest.xml")
        let other = Self.fingerprint(0xAB)
        let filter = #"{"autoVerify":true,"actions":["android.intent.action.VIEW"],"categories":[],"data":[{"scheme":"https"}]}"#
        let cases: [(file: String, android: String, field: String, message: String)] = [
            (apk, #"{"package":"com.example.other"}"#, "android.package", "is com.example.other, but \(apk) declares com.example.partner"),
            (apk, #"{"fingerprints":["\#(other)"]}"#, "android.fingerprints", "differ from the signing certificates of \(apk), current and past: "),
            (apk, #"{"intentFilters":[\#(filter)]}"#, "android.intentFilters", "lists 1, but \(apk) declares 2: "),
            (apk, #"{"intentFilters":[\#(filter),\#(filter)]}"#, "android.intentFilters[0]", "differs from what \(apk) declares: {\"actions\""),
            (apk, #"{"activities":[]}"#, "android.activities", "lists 0, but \(apk) declares 2: "),
            (aab, "{}", "android.fingerprints", "is required with an artifact of kind aab: a bundle is signed by the upload key"),
            (manifest, "{}", "android.fingerprints", "is required with an artifact of kind source-manifest: a manifest carries no signature"),
            (apk, #"{"assetLinks":{"other.test":"x.json"}}"#, "android.assetLinks.other.test", "no intent filter asks Android to verify other.test"),
            (
                apk, #"{},"association":{"applinks":{"details":[]}}"#, "association",
                "routes no domain: \(apk) is an Android artifact, which claims no iOS domains"
            ),
        ]
        var files: [String: String] = [:]
        for (index, refusal) in cases.enumerated() {
            files["apps.d/\(index).json"] =
                #"{"appID":"T.\#(index)","handler":{"builtin":"accept"},"artifact":"\#(refusal.file)","android":\#(refusal.android)}"#
        }
        files["apps.d/good.json"] =
            #"{"appID":"T.good","handler":{"builtin":"accept"},"artifact":"\#(apk)","android":{"package":"com.example.partner"}}"#
        let daemon = try Self.daemon(files)
        defer { TestDirectory.remove(daemon.directory) }
        let (result, _) = try await TestDaemonProcess.run(daemon) { _ in
            guard case .apps(let result) = try await daemon.connect().request(.apps) else { throw ClientError.unexpectedReply(.apps) }
            return result
        }
        #expect(result.apps.map(\.appID) == ["T.good"])
        #expect(result.refused.map(\.source) == cases.indices.map { daemon.directory + "/apps.d/\($0).json" })
        for (refused, expected) in zip(result.refused, cases) {
            #expect(refused.field == expected.field, "\(refused)")
            #expect(refused.message.hasPrefix(expected.message), "\(refused.message)")
        }
    }

    @Test func anArtifactsPackageThatIsAnotherAppsIsRefusedAlone() async throws {
        let apk = try await AndroidTestArtifacts.path("app-rotated.apk")
        let daemon = try Self.daemon([
            "apps.d/a.json": #"{"appID":"T.a","handler":{"builtin":"accept"},"artifact":"\#(apk)"}"#,
            "apps.d/b.json":
                #"{"appID":"T.b","handler":{"builtin":"accept"},"android":{"package":"com.example.partner","fingerprints":["\#(Self.fingerprint(1))"]}}"#,
        ])
        defer { TestDirectory.remove(daemon.directory) }
        let ((result, text), _) = try await TestDaemonProcess.run(daemon) { _ in
            guard case .apps(let result) = try await daemon.connect().request(.apps) else { throw ClientError.unexpectedReply(.apps) }
            return (result, try await TestCommand.run("appflip", ["apps", "--socket", daemon.socketPath]).standardOutput)
        }
        #expect(result.apps.map(\.appID) == ["T.b"])
        #expect(result.refused.first?.message == "\(apk) is com.example.partner, already the package of T.b in \(daemon.directory)/apps.d/b.json")
        #expect(
            text.contains("refused \(daemon.directory)/apps.d/a.json: `artifact`: \(apk) is com.example.partner, already the package of T.b"),
            "\(text)"
        )
    }

    @Test func checkReadsTheArtifactsAndFailsOnOneThatIsRefused() async throws {
        let daemon = try Self.daemon([
            "apps.d/partner.json": #"{"appID":"T.partner","handler":{"builtin":"accept"},"artifact":"missing.apk"}"#
        ])
        defer { TestDirectory.remove(daemon.directory) }
        let exit = try await TestDaemonProcess.runToCompletion(arguments: ["--config", daemon.configurationFile, "--check"])
        #expect(exit.status == 1)
        #expect(exit.standardError.contains("app file refused: \(daemon.directory)/apps.d/partner.json: `artifact`: "), "\(exit.standardError)")
    }

    // MARK: iOS artifacts

    /// The iOS artifacts Tests/AppleArtifacts/make_ios_artifacts.py builds to Apple's layout, once per test process.
    static let iosArtifacts = Task {
        let folder = try TestDirectory.make() + "/ios"  // left for the process, as the artifact tests leave theirs
        let script = Repository.path("Tests/AppleArtifacts/make_ios_artifacts.py")
        let outcome = try await TestCommandRunner.run("/usr/bin/env", ["python3", script, folder], within: .seconds(600))
        guard outcome.status == 0 else { throw AndroidTestArtifacts.BuildFailed(description: "\(script) failed: \(outcome.standardError)") }
        return folder
    }

    static let iosAppID = "ABCDE12345.com.example.demo"
    /// What Demo.ipa's executable claims in its signed entitlements (make_ios_artifacts.py's DOMAINS).
    static let iosDomains = ["applinks:example.com", "applinks:*.example.com?mode=developer", "applinks:flip.example.com?mode=developer+managed"]
    static let iosAssociation =
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.demo"],"components":[{"/":"/flip/*"},{"/":"/app/*"}]}]}}"#

    /// An .ipa routes as the domains its signed entitlements claim, written by hand with the same association.
    @Test func anIPARoutesAsTheDomainsItClaimsWrittenByHand() async throws {
        let ipa = try await Self.iosArtifacts.value + "/Demo.ipa"
        let strings = "[" + Self.iosDomains.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let fromArtifact = try Self.daemon([
            "apps.d/demo.json":
                #"{"appID":"\#(Self.iosAppID)","handler":{"builtin":"accept"},"artifact":"\#(ipa)","association":\#(Self.iosAssociation)}"#
        ])
        defer { TestDirectory.remove(fromArtifact.directory) }
        let byHand = try Self.daemon([
            "apps.d/demo.json":
                #"{"appID":"\#(Self.iosAppID)","handler":{"builtin":"accept"},"domains":\#(strings),"association":\#(Self.iosAssociation)}"#
        ])
        defer { TestDirectory.remove(byHand.directory) }
        let urls = [
            "https://example.com/flip/1", "https://example.com/other", "https://x.example.com/app/2", "https://flip.example.com/flip/",
            "https://other.test/flip/1",
        ]
        @Sendable func decisions(_ daemon: TestDaemon) async throws -> [String] {
            let client = try await daemon.connect()
            var decisions = try await client.apps().map { "\($0.appID) \($0.domains)" }
            for url in urls {
                decisions.append("\(try await client.explain(url))")
                decisions.append(String(describing: try? await client.open(url).app))
            }
            return decisions
        }
        let (artifactDecisions, _) = try await TestDaemonProcess.run(fromArtifact) { _ in
            let app = try #require(try await fromArtifact.connect().apps().first)
            #expect(app.artifact == AppArtifact(file: ipa, kind: "ipa"))
            #expect(app.domains == Self.iosDomains)
            return try await decisions(fromArtifact)
        }
        let (handDecisions, _) = try await TestDaemonProcess.run(byHand) { _ in try await decisions(byHand) }
        #expect(artifactDecisions == handDecisions)
        #expect(artifactDecisions.contains { $0.contains("decision: AppFlipProtocol.ExplainResult.Decision.match") })
    }

    /// An iOS artifact's app ID and domains hold the file's, and it needs the file's association.
    @Test func anIOSArtifactThatDisagreesWithTheFileRefusesItsApp() async throws {
        let folder = try await Self.iosArtifacts.value
        let ipa = folder + "/Demo.ipa"
        let association = #","association":\#(Self.iosAssociation)"#
        let cases: [(appID: String, artifact: String, extra: String, field: String, message: String)] = [
            ("ABCDE12345.com.example.other", ipa, association, "appID", "is ABCDE12345.com.example.other, but the "),
            (
                Self.iosAppID, ipa, #","domains":["applinks:example.com"]"# + association, "domains",
                "differ from the applinks: domains the signed entitlements of \(ipa) claim: "
            ),
            (Self.iosAppID, ipa, "", "association", "is required with an iOS artifact: "),
            (
                Self.iosAppID, folder + "/development.mobileprovision", association, "artifact",
                "\(folder)/development.mobileprovision (provisioning-profile) claims no associated domains"
            ),
            (Self.iosAppID, ipa, #","android":{"assetLinks":{}}"# + association, "android", "\(ipa) is an iOS artifact (ipa): "),
        ]
        // One daemon each: the app files share the artifact's app id, which two files may not.
        for refusal in cases {
            let daemon = try Self.daemon([
                "apps.d/demo.json":
                    #"{"appID":"\#(refusal.appID)","handler":{"builtin":"accept"},"artifact":"\#(refusal.artifact)"\#(refusal.extra)}"#,
                "apps.d/good.json":
                    #"{"appID":"T.good","domains":["applinks:good.test"],"association":\#(Self.iosAssociation),"handler":{"builtin":"accept"}}"#,
            ])
            defer { TestDirectory.remove(daemon.directory) }
            let (result, _) = try await TestDaemonProcess.run(daemon) { _ in
                guard case .apps(let result) = try await daemon.connect().request(.apps) else { throw ClientError.unexpectedReply(.apps) }
                return result
            }
            #expect(result.apps.map(\.appID) == ["T.good"])
            #expect(result.refused.map(\.source) == [daemon.directory + "/apps.d/demo.json"])
            #expect(result.refused.first?.field == refusal.field, "\(result.refused)")
            #expect(result.refused.first?.message.hasPrefix(refusal.message) == true, "\(result.refused)")
        }
    }

    // MARK: SIGHUP

    /// SIGHUP reads the artifact again: a rebuilt one routes its new filters, and one that can no longer be read
    /// refuses its app alone while the others are served.
    @Test func sighupReadsTheArtifactsAgain() async throws {
        @Sendable func manifest(host: String) -> String {
            App(
                index: 0,
                filters: [
                    Filter(
                        autoVerify: true,
                        actions: [Self.view],
                        categories: Self.linkCategories,
                        schemes: ["https"],
                        hosts: [(host, nil)],
                        paths: []
                    )
                ]
            ).manifest
        }
        var configuration = DaemonConfiguration()
        configuration.platform = .android
        let daemon = try Self.daemon(
            [
                "app.xml": manifest(host: "before.test"),
                "apps.d/app.json":
                    #"{"appID":"T.app","handler":{"builtin":"accept"},"artifact":"../app.xml","android":{"fingerprints":["\#(Self.fingerprint(1))"]}}"#,
                "apps.d/good.json":
                    #"{"appID":"T.good","handler":{"builtin":"accept"},"android":{"package":"com.example.good","fingerprints":["\#(Self.fingerprint(2))"]}}"#,
            ],
            configuration: configuration
        )
        defer { TestDirectory.remove(daemon.directory) }
        let (outcome, exit) = try await TestDaemonProcess.run(daemon) { pid in
            let client = try await daemon.connect()
            func hosts() async throws -> [String]? {
                try await client.apps().first { $0.appID == "T.app" }?.android?.intentFilters.flatMap { $0.authorities.map(\.host) }
            }
            func apps() async throws -> [String] {
                guard case .apps(let result) = try await client.request(.apps) else { throw ClientError.unexpectedReply(.apps) }
                return result.apps.map(\.appID) + result.refused.map { "refused \($0.field ?? "")" }
            }
            let before = try await hosts()
            try TestDirectory.write(manifest(host: "after.test"), to: daemon.directory + "/app.xml", mode: 0o644)
            kill(pid, SIGHUP)
            try await waitUntil("the rebuilt artifact is read") { try await hosts() != before }
            let after = try await hosts()
            let routed = try await client.explain("https://after.test/").android?.reason
            try TestDirectory.write("not an artifact", to: daemon.directory + "/app.xml", mode: 0o644)
            kill(pid, SIGHUP)
            try await waitUntil("the broken artifact is refused") { try await apps() != ["T.app", "T.good"] }
            return (before, after, routed, try await apps())
        }
        #expect(outcome.0 == ["before.test"])
        #expect(outcome.1 == ["after.test"])
        #expect(outcome.2?.hasPrefix("com.example.app0 matches by /android/intentFilters/0") == true, "\(outcome.2 ?? "")")
        #expect(outcome.3 == ["T.good", "refused artifact"])
        #expect(exit.status == 0)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

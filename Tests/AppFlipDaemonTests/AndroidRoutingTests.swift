import AppFlipClient
import AppFlipCore
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// `open` routed as Android resolves a VIEW intent: the app whose intent filter matches and whose host its
/// statement list verifies, otherwise the browser with the reason; over a real socket, with live apps.
@Suite struct AndroidRoutingTests {
    static let package = "com.example.partner"
    static let fingerprint = Array(repeating: "12", count: 32).joined(separator: ":")
    static let otherFingerprint = Array(repeating: "34", count: 32).joined(separator: ":")

    /// One autoVerify filter for `https://partner.test/link…`.
    static let identity = AndroidIdentity(
        package: package,
        fingerprints: [fingerprint],
        intentFilters: [
            IntentFilter(
                autoVerify: true,
                schemes: ["https"],
                authorities: [.init(host: "partner.test")],
                paths: [try! PatternMatcher("/link", kind: .prefix)]
            )
        ]
    )

    /// A statement list delegating `handle_all_urls` to `package` signed by `fingerprint`.
    static func statementList(fingerprint: String = fingerprint) -> JSONValue {
        .array([
            .object([
                "relation": .array([.string("delegate_permission/common.handle_all_urls")]),
                "target": .object([
                    "namespace": .string("android_app"),
                    "package_name": .string(package),
                    "sha256_cert_fingerprints": .array([.string(fingerprint)]),
                ]),
            ])
        ])
    }

    /// Registers the partner as a live app with `assetLinks`, recording the activities pushed to it.
    static func livePartner(
        _ daemon: TestDaemon,
        assetLinks: [String: JSONValue],
        seen: NIOLockedValueBox<[ActivityPush]> = .init([])
    ) async throws -> AppFlipConnection {
        let connection = try await daemon.connect(client: "partner")
        _ = try await connection.register(
            RegisterRequest(appID: "P.partner", domains: [], android: identity, assetLinks: assetLinks),
            handler: ImmediateLiveApp { push in
                seen.withLockedValue { $0.append(push) }
                return LiveAnswer(continue: true)
            }
        )
        return connection
    }

    static func openAsAndroid(_ connection: AppFlipConnection, _ url: String, universalLinksOnly: Bool = false) async throws -> OpenResult {
        try await connection.open(
            OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(universalLinksOnly: universalLinksOnly, platform: .android))
        )
    }

    /// The error an `open` with `universalLinksOnly`, routed as Android, gets.
    static func refusedAsAndroid(_ connection: AppFlipConnection, _ url: String) async throws -> ErrorBody {
        let reply = try await connection.send(
            .open(OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(universalLinksOnly: true, platform: .android)))
        ).get()
        return try #require(reply.error)
    }

    @Test func aLinkGoesToTheAppWhoseFilterMatchesAndWhoseHostIsVerified() async throws {
        try await withTestDaemon { daemon in
            let seen = NIOLockedValueBox<[ActivityPush]>([])
            let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": Self.statementList()], seen: seen)
            defer { Task { await partner.close() } }
            let client = try await daemon.connect()
            let result = try await Self.openAsAndroid(client, "https://partner.test/link/42?x=1")
            #expect(result.status == .handled)
            #expect(result.app == "P.partner")
            #expect(result.domain == "partner.test")
            #expect(result.rule == "/android/intentFilters/0")
            #expect(result.reason == nil)
            let push = try #require(seen.withLockedValue { $0.first })
            #expect(push.rule == "/android/intentFilters/0")
            #expect(push.activity.webpageURL == "https://partner.test/link/42?x=1")
        }
    }

    @Test func aLinkOpensInTheBrowserWithTheReason() async throws {
        try await withTestDaemon { daemon in
            let client = try await daemon.connect()
            // No app at all: no filter.
            let nobody = try await Self.openAsAndroid(client, "https://partner.test/link/1")
            #expect(nobody.status == .browser)
            #expect(nobody.reason == "no app has a VIEW, BROWSABLE, DEFAULT intent filter for the URL")

            // A statement list naming another signing certificate.
            let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": Self.statementList(fingerprint: Self.otherFingerprint)])
            let wrongKey = try await Self.openAsAndroid(client, "https://partner.test/link/1")
            #expect(wrongKey.status == .browser)
            #expect(wrongKey.app == nil)
            let reason = try #require(wrongKey.reason)
            #expect(
                reason.hasPrefix("com.example.partner matches by /android/intentFilters/0 but partner.test is not verified (1024): "),
                "\(reason)"
            )
            #expect(reason.contains("no statement delegates handle_all_urls to com.example.partner"), "\(reason)")

            // The path no filter takes.
            let otherPath = try await Self.openAsAndroid(client, "https://partner.test/other")
            #expect(otherPath.reason == "no app has a VIEW, BROWSABLE, DEFAULT intent filter for the URL")

            // universalLinksOnly turns the browser into no_app, as on iOS.
            let error = try await Self.refusedAsAndroid(client, "https://partner.test/link/1")
            #expect(error.code == .noApp)
            #expect(error.message.contains("partner.test is not verified (1024)"), "\(error.message)")
            await partner.close()
        }
    }

    @Test func aHostWithoutAStatementListIsUnverifiedAndSaysSo() async throws {
        try await withTestDaemon { daemon in
            let partner = try await Self.livePartner(daemon, assetLinks: [:])
            defer { Task { await partner.close() } }
            let client = try await daemon.connect()
            let result = try await Self.openAsAndroid(client, "https://partner.test/link/1")
            #expect(result.status == .browser)
            #expect(
                result.reason
                    == "com.example.partner matches by /android/intentFilters/0 but partner.test is not verified (none): "
                    + "no statement list is configured for partner.test (android.assetLinks), so nothing verifies it"
            )
        }
    }

    @Test func theVerifierIsTheDaemonsSetting() async throws {
        // A second statement with a relation that is not `kind/detail`: Google's verifier skips it,
        // StatementService throws and fails the host (1028).
        guard case .array(let list) = Self.statementList(), case .object(var bad) = list[0] else { return }
        bad["relation"] = .array([.string("Not A Relation")])
        let statements = JSONValue.array(list + [.object(bad)])
        for (verifier, handled) in [(AppLinkVerifier.google, true), (.statementService, false)] {
            var configuration = DaemonConfiguration()
            configuration.android.verifier = verifier
            try await withTestDaemon(configuration: configuration) { daemon in
                let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": statements])
                defer { Task { await partner.close() } }
                let client = try await daemon.connect()
                let result = try await Self.openAsAndroid(client, "https://partner.test/link/1")
                #expect((result.status == .handled) == handled, "\(verifier): \(result)")
                if !handled { #expect(result.reason?.contains("partner.test is not verified (1028)") == true, "\(result)") }
            }
        }
    }

    @Test func android11VerifiesAllHostsOrNoneAndAndroid12EachHost() async throws {
        var twoHosts = Self.identity
        twoHosts.intentFilters.append(IntentFilter(autoVerify: true, schemes: ["https"], authorities: [.init(host: "other.test")]))
        let identity = twoHosts
        for (generation, handled) in [(AndroidGeneration.android12, true), (.android11AndEarlier, false)] {
            var configuration = DaemonConfiguration()
            configuration.android.generation = generation
            try await withTestDaemon(configuration: configuration) { daemon in
                let partner = try await daemon.connect(client: "partner")
                _ = try await partner.register(
                    RegisterRequest(appID: "P.partner", domains: [], android: identity, assetLinks: ["partner.test": Self.statementList()]),
                    handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
                )
                defer { Task { await partner.close() } }
                let client = try await daemon.connect()
                let result = try await Self.openAsAndroid(client, "https://partner.test/link/1")
                #expect(result.status == (handled ? .handled : .chooser), "\(generation): \(result)")
                if !handled {
                    #expect(result.reason?.contains("Android 11 verifies all its hosts or none, and other.test failed") == true, "\(result)")
                }
            }
        }
    }

    @Test func theDefaultPlatformIsIOSAndTheConfiguredOneAppliesWithoutOptions() async throws {
        let url = "https://partner.test/link/1"
        try await withTestDaemon { daemon in
            let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": Self.statementList()])
            defer { Task { await partner.close() } }
            let client = try await daemon.connect()
            // iOS: the app claims no applinks: domain.
            let ios = try await client.open(url, universalLinksOnly: false)
            #expect(ios.status == .browser)
            #expect(ios.reason == nil)
            #expect(try await Self.openAsAndroid(client, url).status == .handled)
        }
        var configuration = DaemonConfiguration()
        configuration.platform = .android
        try await withTestDaemon(configuration: configuration) { daemon in
            let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": Self.statementList()])
            defer { Task { await partner.close() } }
            let client = try await daemon.connect()
            #expect(try await client.open(url, universalLinksOnly: false).status == .handled)
            let ios = try await client.open(
                OpenRequest(activity: Activity(webpageURL: url), options: OpenOptions(universalLinksOnly: false, platform: .ios))
            )
            #expect(ios.status == .browser)
        }
    }

    /// Android 11 and earlier show the disambiguation dialog for a link an unverified app's filter matches,
    /// autoVerify or not; the daemon has no user to choose: `open` says `chooser` with the apps and why
    /// (`no_app` with `universalLinksOnly`), `explain` and `watch` say it too, and Android 12+ open the browser.
    @Test func android11ShowsTheDialogForAnUnverifiedMatch() async throws {
        let plain = AndroidIdentity(
            package: "com.example.web",
            fingerprints: [Self.fingerprint],
            intentFilters: [IntentFilter(schemes: ["https"], authorities: [.init(host: "partner.test")])]
        )
        let web = TestApp(appID: "T.web", domains: [], handler: .accept, android: plain)
        var configuration = DaemonConfiguration()
        configuration.android.generation = .android11AndEarlier
        try await withTestDaemon(configuration: configuration, apps: [web]) { daemon in
            let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": Self.statementList(fingerprint: Self.otherFingerprint)])
            defer { Task { await partner.close() } }
            let watcher = try await daemon.connect(client: "watcher")
            let events = try await watcher.watch()
            let client = try await daemon.connect()
            let result = try await Self.openAsAndroid(client, "https://partner.test/link/1")
            #expect(result.status == .chooser)
            #expect(result.apps == ["P.partner", "T.web"])
            #expect(result.app == nil)
            let reason = try #require(result.reason)
            #expect(
                reason.hasPrefix("Android 11 and earlier show the disambiguation dialog, offering the browsers and com.example.partner"),
                "\(reason)"
            )
            #expect(reason.contains("partner.test failed (1024"), "\(reason)")
            #expect(
                reason.contains("com.example.web (matches by /android/intentFilters/0: none of its intent filters asks Android to verify it"),
                "\(reason)"
            )
            var iterator = events.makeAsyncIterator()
            let event = try #require(await iterator.next())
            #expect(event.outcome == "chooser")

            let error = try await Self.refusedAsAndroid(client, "https://partner.test/link/1")
            #expect(error.code == .noApp)
            #expect(error.message.contains("no Android app opens https://partner.test/link/1 on its own"), "\(error.message)")

            let explained = try #require(try await client.explain("https://partner.test/link/1").android)
            #expect(explained.decision == .chooser)
            #expect(explained.generation == 11)
            #expect(explained.apps == ["P.partner", "T.web"])
            #expect(explained.reason == reason)
            let others = explained.otherwise ?? []
            #expect(others.map(\.decision) == [.browser, .browser, .browser, .browser], "\(others)")
            await watcher.close()
        }
    }

    /// docs/protocol.md shows the `chooser` reply "from a daemon playing Android 11" without its request: it is
    /// what such a daemon, with the page's example apps, answers for `https://web.test/page`.
    @Test func theProtocolPagesChooserReplyIsWhatAnAndroid11DaemonAnswers() async throws {
        let shown = try #require(
            ProtocolExamplesTests.document.split(separator: "\n").first { $0.hasPrefix("{") && $0.contains(#""status":"chooser""#) }
        )
        var configuration = DaemonConfiguration()
        configuration.android.generation = .android11AndEarlier
        try await withTestDaemon(configuration: configuration, apps: ProtocolExamplesTests.apps) { daemon in
            try await RawLineSession.with(socket: daemon.socketPath) { raw in
                try await raw.send(#"{"id":0,"op":"hello","version":1}"#)
                _ = await raw.nextLine()
                try await raw.send(
                    #"{"id":6,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://web.test/page"},"options":{"platform":"android"}}"#
                )
                let reply = try #require(await raw.nextLine())
                #expect(try ProtocolExamplesTests.normalized(reply) == ProtocolExamplesTests.normalized(String(shown)), "\(reply)")
            }
        }
    }

    /// Several verified apps: no dialog on any generation; Android 12+ open the one installed last, Android
    /// 6–11 the one verified last, and `explain` says which and why. Live apps are installed, and verified,
    /// as they register.
    @Test func severalVerifiedAppsOpenTheOneTheDevicesHistoryPutsFirst() async throws {
        let second = AndroidIdentity(package: "com.example.second", fingerprints: [Self.fingerprint], intentFilters: Self.identity.intentFilters)
        guard case .array(let first) = Self.statementList(), case .object(var other) = first[0], case .object(var target) = other["target"] else {
            return
        }
        target["package_name"] = .string(second.package)
        other["target"] = .object(target)
        let both = JSONValue.array(first + [.object(other)])
        for generation in [AndroidGeneration.android12, .android11AndEarlier] {
            var configuration = DaemonConfiguration()
            configuration.android.generation = generation
            try await withTestDaemon(configuration: configuration) { daemon in
                let partner = try await Self.livePartner(daemon, assetLinks: ["partner.test": both])
                defer { Task { await partner.close() } }
                let later = try await daemon.connect(client: "second")
                _ = try await later.register(
                    RegisterRequest(appID: "P.second", domains: [], android: second, assetLinks: ["partner.test": both]),
                    handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
                )
                defer { Task { await later.close() } }
                let client = try await daemon.connect()
                let result = try await Self.openAsAndroid(client, "https://partner.test/link/1")
                #expect(result.status == .handled)
                #expect(result.app == "P.second", "\(generation)")
                let explained = try #require(try await client.explain("https://partner.test/link/1").android)
                #expect(explained.decision == .match)
                #expect(explained.apps == ["P.second"])
                let rule =
                    generation == .android12
                    ? "Android 12 and later open the app first installed last" : "Android 11 and earlier open the app verified last"
                #expect(
                    explained.reason
                        == "P.partner is verified too; \(rule)\(generation == .android12 ? " (filterToLastFirstInstalled)" : " (its app-link generation)"): P.second"
                )
            }
        }
    }

    /// `apps` shows each Android app's hosts as `pm get-app-links` would on the configured device, and on
    /// Android 6–11 the app's one status.
    @Test func appsShowsEachHostsStateOnTheConfiguredDevice() async throws {
        var twoHosts = Self.identity
        twoHosts.intentFilters.append(IntentFilter(autoVerify: true, schemes: ["https"], authorities: [.init(host: "other.test")]))
        let identity = twoHosts
        let expectations: [(AndroidSettings, Int, String?, [String])] = [
            (AndroidSettings(), 15, nil, ["partner.test verified", "other.test 1024"]),
            (AndroidSettings(verifier: .statementService, generation: .android12), 12, nil, ["partner.test verified", "other.test 1026"]),
            (AndroidSettings(verifier: .google, generation: .android11AndEarlier), 11, "ask", ["partner.test verified", "other.test 1024"]),
        ]
        for (android, release, status, hosts) in expectations {
            var configuration = DaemonConfiguration()
            configuration.android = android
            try await withTestDaemon(configuration: configuration) { daemon in
                let partner = try await daemon.connect(client: "partner")
                _ = try await partner.register(
                    RegisterRequest(
                        appID: "P.partner",
                        domains: [],
                        android: identity,
                        assetLinks: ["partner.test": Self.statementList(), "other.test": Self.statementList(fingerprint: Self.otherFingerprint)]
                    ),
                    handler: ImmediateLiveApp { _ in LiveAnswer(continue: true) }
                )
                defer { Task { await partner.close() } }
                let client = try await daemon.connect()
                let app = try #require(try await client.apps().first { $0.appID == "P.partner" })
                let states = try #require(app.domainVerification)
                #expect(states.generation == release)
                #expect(states.verifier == (android.verifier == .google ? "google" : "statementService"))
                #expect(states.status == status)
                #expect(states.hosts.map { "\($0.host) \($0.state)" } == hosts)
                #expect(states.hosts.first?.reason == "statement /0 delegates handle_all_urls to com.example.partner")
            }
        }
    }

    @Test func aStatementListForAHostNoFilterVerifiesIsRefused() async throws {
        try await withTestDaemon { daemon in
            let connection = try await daemon.connect(client: "partner")
            let reply = try await connection.send(
                .register(RegisterRequest(appID: "P.partner", domains: [], android: Self.identity, assetLinks: ["other.test": Self.statementList()]))
            ).get()
            let error = try #require(reply.error)
            #expect(error.code == .invalidRequest)
            #expect(error.field == "android.assetLinks.other.test")
        }
    }
}

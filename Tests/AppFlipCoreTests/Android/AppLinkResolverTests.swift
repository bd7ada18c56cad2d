import AppFlipCore
import Testing

/// Intent-filter matching and "which app opens this URL" per Android generation.
@Suite struct AppLinkResolverTests {
    static let fingerprint = AppLinkVerifierTests.fingerprint
    static let filter = IntentFilter(
        autoVerify: true,
        schemes: ["https", "http"],
        authorities: [.init(host: "links.example.com"), .init(host: "*.shop.example.com")],
        paths: [try! PatternMatcher("/app", kind: .prefix), try! PatternMatcher("/item/.*/view", kind: .simpleGlob)]
    )
    static let app = AndroidIdentity(package: "com.example.partner", fingerprints: [fingerprint], intentFilters: [filter])

    /// `identity` on the device, its hosts in `states`, installed at `installed`, `always` since `verifiedAt`.
    static func device(
        _ identity: AndroidIdentity,
        _ states: [String: AppLinkState],
        rules: [DynamicAppLinkRule] = [],
        installed: Int = 1,
        verifiedAt: Int? = nil
    ) -> AppLinkResolver.App {
        AppLinkResolver.App(
            identity: identity,
            verdicts: states.mapValues { HostVerdict(state: $0, reason: "test", dynamicRules: rules) },
            installed: installed,
            verifiedAt: verifiedAt
        )
    }

    static let allVerified = device(app, ["links.example.com": .verified, "*.shop.example.com": .verified])

    @Test func dataElementsMergeWithinAFilter() {
        // The scheme of one <data>, the host of another and the path of a third combine.
        #expect(Self.filter.matchesData(AndroidURI("http://a.shop.example.com/apple")!))
        #expect(!Self.filter.matchesData(AndroidURI("https://shop.example.com/app")!))
        #expect(!Self.filter.matchesData(AndroidURI("https://links.example.com/other")!))
        // No backtracking: `.*` stops at the first `/`.
        #expect(!Self.filter.matchesData(AndroidURI("https://links.example.com/item/a/b/view")!))
        #expect(Self.filter.matchesData(AndroidURI("https://LINKS.example.com/item/a/view")!))
    }

    @Test func whichFiltersAreCollectedForVerification() {
        #expect(Self.app.verificationHosts == ["links.example.com", "*.shop.example.com"])
        var custom = Self.filter
        custom.schemes.append("partner")
        #expect(!custom.isCollectedForVerification)
        var noDefault = Self.filter
        noDefault.categories = [IntentFilter.categoryBrowsable]
        #expect(!noDefault.isCollectedForVerification)
        var notAuto = Self.filter
        notAuto.autoVerify = false
        #expect(notAuto.verificationHosts == [])
    }

    /// Android 6–11 verify, once one filter asks (`needsVerification()`: autoVerify and only web schemes), the
    /// hosts of every filter that takes web links, DEFAULT or not (`IntentFilterVerificationManager`
    /// `verifyIntentFiltersIfNeeded`, `handlesWebUris(false)`); Android 12+ only the autoVerify filters'.
    @Test func android11VerifiesEveryWebFiltersHosts() {
        let plain = IntentFilter(
            categories: [IntentFilter.categoryBrowsable],
            schemes: ["https", "partner"],
            authorities: [.init(host: "other.example.com")]
        )
        let identity = AndroidIdentity(package: "com.example.partner", fingerprints: [Self.fingerprint], intentFilters: [Self.filter, plain])
        #expect(identity.verificationHosts(on: .android12) == ["links.example.com", "*.shop.example.com"])
        #expect(identity.verificationHosts(on: .android11AndEarlier) == ["links.example.com", "*.shop.example.com", "other.example.com"])
        // With no filter asking, Android 11 verifies nothing.
        let unasked = AndroidIdentity(package: "com.example.partner", fingerprints: [Self.fingerprint], intentFilters: [plain])
        #expect(unasked.verificationHosts(on: .android11AndEarlier) == [])
        #expect(Self.device(unasked, [:]).legacyStatus.status == .undefined)
    }

    /// One app of a case: its package, filters (hosts: `autoVerify` or not), its hosts' states and its history.
    struct Installed: Sendable, CustomStringConvertible {
        let package: String
        let autoVerify: [String]
        var plain: [String] = []
        var states: [String: AppLinkState] = [:]
        var installed = 1
        var verifiedAt: Int?

        var app: AppLinkResolver.App {
            var filters: [IntentFilter] = []
            if !autoVerify.isEmpty {
                filters.append(IntentFilter(autoVerify: true, schemes: ["https"], authorities: autoVerify.map { .init(host: $0) }))
            }
            if !plain.isEmpty { filters.append(IntentFilter(schemes: ["https"], authorities: plain.map { .init(host: $0) })) }
            let identity = AndroidIdentity(package: package, fingerprints: [AppLinkResolverTests.fingerprint], intentFilters: filters)
            return AppLinkResolverTests.device(identity, states, installed: installed, verifiedAt: verifiedAt)
        }

        var description: String { package }
    }

    /// What a resolution comes to, in a word and the packages: `app com.a`, `chooser com.b`, `browser`.
    static func outcome(_ resolution: AppLinkResolver.Resolution) -> String {
        switch resolution {
        case .opensApp(let match, _): "app \(match.packageName)"
        case .chooser(let offered): "chooser " + offered.map(\.match.packageName).joined(separator: " ")
        case .opensInBrowser: "browser"
        }
    }

    static let verifiedA = Installed(package: "com.a", autoVerify: ["a.test"], states: ["a.test": .verified])
    static let failingB = Installed(package: "com.b", autoVerify: ["a.test"], states: ["a.test": .rejectedByServer])
    static let plainC = Installed(package: "com.c", autoVerify: [], plain: ["a.test"])
    /// Verified for a.test, but its other host fails.
    static let halfD = Installed(package: "com.d", autoVerify: ["a.test", "b.test"], states: ["a.test": .verified, "b.test": .unknown])
    /// Verified for a.test; its plain filter's host fails, which only Android 6–11 verify.
    static let plainFailsE = Installed(
        package: "com.e",
        autoVerify: ["a.test"],
        plain: ["c.test"],
        states: ["a.test": .verified, "c.test": .unknown]
    )
    /// Verified for every subdomain of w.test; a plain filter takes w.test itself.
    static let wildcardW = Installed(
        package: "com.w",
        autoVerify: ["*.w.test"],
        plain: ["w.test"],
        states: ["*.w.test": .verified, "w.test": .verified]
    )

    /// Each generation's decision, as the AOSP code it cites makes it. 11: `PackageManagerService`
    /// `filterCandidatesWithDomainPreferredActivitiesLPr` (android-11: `alwaysList`, `undefinedList` and the
    /// browsers) and `chooseBestActivity`; 12+: `DomainVerificationService.filterToApprovedApp`.
    @Test(arguments: [
        // One verified app opens the link on both: ALWAYS → alwaysList alone; approvalLevelForDomain → VERIFIED.
        ([verifiedA], "https://a.test/", AndroidGeneration.android11AndEarlier, "app com.a"),
        ([verifiedA], "https://a.test/", .android12, "app com.a"),
        // A failed autoVerify app: ASK → undefinedList plus the browsers (the dialog); 12+: APPROVAL_LEVEL_NONE → browsers only.
        ([failingB], "https://a.test/", .android11AndEarlier, "chooser com.b"),
        ([failingB], "https://a.test/", .android12, "browser"),
        ([failingB], "https://a.test/", .android15, "browser"),
        // An app that never asked (no autoVerify): UNDEFINED → undefinedList plus the browsers; 12+: the browsers.
        ([plainC], "https://a.test/", .android11AndEarlier, "chooser com.c"),
        ([plainC], "https://a.test/", .android12, "browser"),
        // Unverified apps beside a verified one: alwaysList is not empty, so it alone is the result.
        ([failingB, plainC, verifiedA], "https://a.test/", .android11AndEarlier, "app com.a"),
        ([failingB, plainC, verifiedA], "https://a.test/", .android12, "app com.a"),
        ([failingB, plainC], "https://a.test/", .android11AndEarlier, "chooser com.b com.c"),
        // One failing host: Android 11's status is ASK for every host; 12+ approve per domain.
        ([halfD], "https://a.test/", .android11AndEarlier, "chooser com.d"),
        ([halfD], "https://a.test/", .android12, "app com.d"),
        ([halfD], "https://b.test/", .android12, "browser"),
        // Android 11 verifies the plain filter's host too (handlesWebUris(false)), and it fails.
        ([plainFailsE], "https://a.test/", .android11AndEarlier, "chooser com.e"),
        ([plainFailsE], "https://a.test/", .android12, "app com.e"),
        // approvalLevelForDomain compares with endsWith: a verified *.w.test approves w.test itself.
        ([wildcardW], "https://w.test/", .android12, "app com.w"),
        ([wildcardW], "https://x.w.test/", .android15, "app com.w"),
        // No filter matches: no candidate.
        ([verifiedA], "https://z.test/", .android11AndEarlier, "browser"),
    ])
    func eachGenerationDecidesAsAOSP(apps: [Installed], url: String, generation: AndroidGeneration, expected: String) {
        #expect(
            Self.outcome(AppLinkResolver.resolve(url, apps: apps.map(\.app), generation: generation)) == expected,
            "\(apps) \(url) on \(generation)"
        )
    }

    /// Several verified apps: Android 12+ open the one first installed last (`filterToLastFirstInstalled`),
    /// Android 6–11 the one whose status became `always` last (its app-link generation is its
    /// `preferredOrder`, and `chooseBestActivity` takes the first when the first two differ in it); neither
    /// shows the dialog.
    @Test func severalVerifiedAppsAreDecidedByTheDevicesHistory() {
        var early = Self.verifiedA
        early.installed = 1
        early.verifiedAt = 9
        var late = Installed(package: "com.z", autoVerify: ["a.test"], states: ["a.test": .verified])
        late.installed = 5
        late.verifiedAt = 6
        let apps = [early.app, late.app]
        let newest = AppLinkResolver.resolve("https://a.test/", apps: apps, generation: .android12)
        #expect(Self.outcome(newest) == "app com.z")
        if case .opensApp(_, let passedOver) = newest { #expect(passedOver.map(\.packageName) == ["com.a"]) }
        #expect(Self.outcome(AppLinkResolver.resolve("https://a.test/", apps: apps, generation: .android11AndEarlier)) == "app com.a")
    }

    @Test func theUnverifiedAppsSayWhy() {
        guard case .chooser(let offered) = AppLinkResolver.resolve("https://a.test/", apps: [Self.halfD.app], generation: .android11AndEarlier) else {
            Issue.record("Android 11 shows the dialog")
            return
        }
        #expect(offered.first?.state == .unknown)
        #expect(offered.first?.reason.contains("b.test failed") == true, "\(offered)")
        guard
            case .opensInBrowser(.unverified(let failing)) = AppLinkResolver.resolve(
                "https://b.test/",
                apps: [Self.halfD.app],
                generation: .android12
            )
        else {
            Issue.record("the failing host opens in the browser")
            return
        }
        #expect(failing.first?.state == .unknown)
    }

    @Test func aVerifiedHostOpensTheApp() {
        let resolution = AppLinkResolver.resolve("https://links.example.com/app/1", apps: [Self.allVerified], generation: .android12)
        guard case .opensApp(let match, let passedOver) = resolution else {
            Issue.record("\(resolution)")
            return
        }
        #expect(match.packageName == Self.app.package)
        #expect(match.host == "links.example.com")
        #expect(passedOver.isEmpty)
    }

    @Test func theBrowserWhenNoFilterMatches() {
        #expect(
            AppLinkResolver.resolve("https://links.example.com/other", apps: [Self.allVerified], generation: .android12) == .opensInBrowser(.noFilter)
        )
        #expect(
            AppLinkResolver.resolve("HTTPS://links.example.com/app", apps: [Self.allVerified], generation: .android12) == .opensInBrowser(.notWebLink)
        )
    }

    @Test func android15DynamicRulesNarrowTheManifest() {
        let rules = [
            DynamicAppLinkRule(exclude: true, path: "/app/private*"),
            DynamicAppLinkRule(path: "/app/*"),
        ]
        let app = Self.device(Self.app, ["links.example.com": .verified], rules: rules)
        guard
            case .opensInBrowser(.excludedByDynamicRule(_, let rule)) = AppLinkResolver.resolve(
                "https://links.example.com/app/private/1",
                apps: [app],
                generation: .android15
            )
        else {
            Issue.record("the exclude rule decides")
            return
        }
        #expect(rule == rules[0])
        #expect(
            Self.outcome(AppLinkResolver.resolve("https://links.example.com/app/1", apps: [app], generation: .android15)) == "app com.example.partner"
        )
        guard
            case .opensInBrowser(.noDynamicRuleMatched) = AppLinkResolver.resolve(
                "https://links.example.com/apple",
                apps: [app],
                generation: .android15
            )
        else {
            Issue.record("no rule matches, so the URL is blocked")
            return
        }
        // Before Android 15 the same statement's rules do not apply.
        #expect(
            Self.outcome(AppLinkResolver.resolve("https://links.example.com/app/private/1", apps: [app], generation: .android12))
                == "app com.example.partner"
        )
    }

    @Test func dynamicRuleQueriesAndFragments() {
        let rule = DynamicAppLinkRule(query: ["ref": "?*"], fragment: "top")
        #expect(rule.matches(AndroidURI("https://a.example/x?a=1&ref=mail#top")!))
        #expect(!rule.matches(AndroidURI("https://a.example/x?ref=#top")!))
        #expect(!rule.matches(AndroidURI("https://a.example/x?ref=mail")!))
        #expect(!DynamicAppLinkRule().matches(AndroidURI("https://a.example/")!))
    }

    @Test func predictionsPerVerifierAndGeneration() {
        let body = Array(AssetLinksDiagnosticTests.androidStatement(package: Self.app.package, fingerprints: "[\"\(Self.fingerprint)\"]").utf8)
        let responses: [String: FetchResult] = [
            "https://links.example.com/.well-known/assetlinks.json": .response(HostResponse(status: 200, body: body)),
            "https://shop.example.com/.well-known/assetlinks.json": .response(HostResponse(status: 200, contentType: "text/html", body: body)),
        ]
        let aosp = AppLinksPrediction.verdicts(for: Self.app, verifier: .statementService, generation: .android12, responses: responses)
        #expect(aosp.mapValues(\.state) == ["links.example.com": .verified, "*.shop.example.com": .verified])
        let google = AppLinksPrediction.verdicts(for: Self.app, verifier: .google, generation: .android12, responses: responses)
        #expect(google.mapValues(\.state) == ["links.example.com": .verified, "*.shop.example.com": .unknown])
        let legacy = AppLinksPrediction.verdicts(for: Self.app, verifier: .google, generation: .android11AndEarlier, responses: responses)
        #expect(legacy.mapValues(\.state) == ["links.example.com": AppLinkState.none, "*.shop.example.com": AppLinkState.none])
    }
}

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

    static func verdicts(_ states: [String: AppLinkState], rules: [DynamicAppLinkRule] = []) -> [String: [String: HostVerdict]] {
        [app.package: states.mapValues { HostVerdict(state: $0, reason: "test", dynamicRules: rules) }]
    }

    static let allVerified = verdicts(["links.example.com": .verified, "*.shop.example.com": .verified])

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

    @Test func aVerifiedHostOpensTheApp() {
        let resolution = AppLinkResolver.resolve(
            "https://links.example.com/app/1",
            apps: [Self.app],
            verdicts: Self.allVerified,
            generation: .android12
        )
        guard case .opensApp(let match) = resolution else {
            Issue.record("\(resolution)")
            return
        }
        #expect(match.packageName == Self.app.package)
        #expect(match.host == "links.example.com")
    }

    @Test func android12VerifiesPerHostAndAndroid11AllOrNone() {
        let mixed = Self.verdicts(["links.example.com": .verified, "*.shop.example.com": .rejectedByServer])
        let url = "https://links.example.com/app"
        if case .opensApp = AppLinkResolver.resolve(url, apps: [Self.app], verdicts: mixed, generation: .android12) {
        } else {
            Issue.record("Android 12 verifies each host on its own")
        }
        guard
            case .opensInBrowser(.unverified(let apps)) = AppLinkResolver.resolve(
                url,
                apps: [Self.app],
                verdicts: mixed,
                generation: .android11AndEarlier
            )
        else {
            Issue.record("Android 11 needs every host verified")
            return
        }
        #expect(apps.first?.state == AppLinkState.none)
        guard
            case .opensInBrowser(.unverified(let failing)) = AppLinkResolver.resolve(
                "https://a.shop.example.com/app",
                apps: [Self.app],
                verdicts: mixed,
                generation: .android12
            )
        else {
            Issue.record("the failing host opens in the browser")
            return
        }
        #expect(failing.first?.state == .rejectedByServer)
    }

    @Test func theBrowserWhenNoFilterMatches() {
        #expect(
            AppLinkResolver.resolve("https://links.example.com/other", apps: [Self.app], verdicts: Self.allVerified, generation: .android12)
                == .opensInBrowser(.noFilter)
        )
        #expect(
            AppLinkResolver.resolve("HTTPS://links.example.com/app", apps: [Self.app], verdicts: Self.allVerified, generation: .android12)
                == .opensInBrowser(.notWebLink)
        )
    }

    @Test func android15DynamicRulesNarrowTheManifest() {
        let rules = [
            DynamicAppLinkRule(exclude: true, path: "/app/private*"),
            DynamicAppLinkRule(path: "/app/*"),
        ]
        let verdicts = Self.verdicts(["links.example.com": .verified], rules: rules)
        guard
            case .opensInBrowser(.excludedByDynamicRule(_, let rule)) = AppLinkResolver.resolve(
                "https://links.example.com/app/private/1",
                apps: [Self.app],
                verdicts: verdicts,
                generation: .android15
            )
        else {
            Issue.record("the exclude rule decides")
            return
        }
        #expect(rule == rules[0])
        if case .opensApp = AppLinkResolver.resolve("https://links.example.com/app/1", apps: [Self.app], verdicts: verdicts, generation: .android15) {
        } else {
            Issue.record("the allow rule decides")
        }
        guard
            case .opensInBrowser(.noDynamicRuleMatched) = AppLinkResolver.resolve(
                "https://links.example.com/apple",
                apps: [Self.app],
                verdicts: verdicts,
                generation: .android15
            )
        else {
            Issue.record("no rule matches, so the URL is blocked")
            return
        }
        // Before Android 15 the same statement's rules do not apply.
        if case .opensApp = AppLinkResolver.resolve(
            "https://links.example.com/app/private/1",
            apps: [Self.app],
            verdicts: verdicts,
            generation: .android12
        ) {
        } else {
            Issue.record("rules apply from Android 15 only")
        }
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

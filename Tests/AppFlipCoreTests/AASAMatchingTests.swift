import Testing

@testable import AppFlipCore

/// Matching rules beyond the corpus, and what a decision tells the user.
@Suite struct AASAMatchingTests {
    static func decide(_ json: String, _ url: String, appID: String = "A.b") throws -> AppDecision {
        try AssociationFile(json: Array(json.utf8)).decide(appID: appID, url: RawURL(url))
    }

    @Test func namesTheDecidingRule() throws {
        let json =
            ##"{"applinks":{"details":[{"appID":"A.other","components":[{"/":"*"}]},{"appIDs":["A.b"],"components":[{"#":"nope","exclude":true},{"/":"/buy/*","comment":"shop"}]}]}}"##
        let decision = try Self.decide(json, "https://example.com/buy/42")
        #expect(decision.outcome == .match)
        #expect(decision.detailsIndex == 1)
        #expect(decision.componentIndex == 1)
        #expect(decision.rule == #"{"/":"/buy/*","comment":"shop"}"#)
        #expect(decision.pointer == "/applinks/details/1/components/1")
        let excluded = try Self.decide(json, "https://example.com/buy/42#nope")
        #expect(excluded.outcome == .exclude && excluded.componentIndex == 0)
        let none = try Self.decide(json, "https://example.com/elsewhere")
        #expect(none == .noMatch)
    }

    @Test func legacyPathsNameThePathString() throws {
        let decision = try Self.decide(#"{"applinks":{"apps":[],"details":[{"appID":"A.b","paths":["NOT /x/*","/x*"]}]}}"#, "https://e.com/x/1")
        #expect(decision.outcome == .exclude)
        #expect(decision.rule == "NOT /x/*")
        #expect(decision.pointer == "/applinks/details/0/paths/0")
    }

    @Test func laterDetailsEntriesAreConsultedWhenEarlierOnesDoNotDecide() throws {
        let json = #"{"applinks":{"details":[{"appID":"A.b","components":[{"/":"/a"}]},{"appID":"A.b","components":[{"/":"/b"}]}]}}"#
        let decision = try Self.decide(json, "https://e.com/b")
        #expect(decision.outcome == .match && decision.detailsIndex == 1 && decision.componentIndex == 0)
    }

    @Test func appIDsWinsOverAppIDEvenWhenEmpty() throws {
        let json = #"{"applinks":{"details":[{"appID":"A.b","appIDs":[],"components":[{"/":"*"}]}]}}"#
        #expect(try Self.decide(json, "https://e.com/x").outcome == .noMatch)
    }

    @Test(arguments: [
        // `?` counts characters, not bytes, once the URL is decoded.
        (#"{"/":"/?/x","percentEncoded":false}"#, "https://e.com/%C3%A9/x", MatchOutcome.match),
        (#"{"/":"/?/x","percentEncoded":false}"#, "https://e.com/%C3%A9%C3%A9/x", .noMatch),
        // Folding covers non-ASCII letters too.
        (#"{"/":"/CAFÉ","percentEncoded":false,"caseSensitive":false}"#, "https://e.com/caf%C3%A9", .match),
        // An encoded `&` stays inside its query item value.
        (#"{"?":{"q":"a&b"},"percentEncoded":false}"#, "https://e.com/x?q=a%26b", .match),
        (#"{"?":{"q":"a&b"}}"#, "https://e.com/x?q=a%26b", .noMatch),
        // `+` is not a space.
        (#"{"?":{"q":"a b"},"percentEncoded":false}"#, "https://e.com/x?q=a+b", .noMatch),
        // Query item names fold with the rule.
        (#"{"?":{"ID":"7"},"caseSensitive":false}"#, "https://e.com/x?id=7", .match),
        (#"{"?":{"ID":"7"}}"#, "https://e.com/x?id=7", .noMatch),
        // Substitution values are patterns; a variable matches exactly one of them.
        (#"{"/":"/$(lang)-$(region)"}"#, "https://e.com/fil-PH", .match),
        (#"{"/":"/$(lang)-$(region)"}"#, "https://e.com/en-uk", .noMatch),
        (#"{"/":"/$(lang)-$(region)","caseSensitive":false}"#, "https://e.com/EN-gb", .match),
        // `$(region)` holds territories, not groupings of them.
        (#"{"/":"/$(region)"}"#, "https://e.com/XK", .match),
        (#"{"/":"/$(region)"}"#, "https://e.com/EU", .noMatch),
        (#"{"/":"/$(region)"}"#, "https://e.com/UN", .noMatch),
        (#"{"/":"/$(region)"}"#, "https://e.com/419", .noMatch),
        // A pathological pattern finishes quickly: the glob never backtracks further than the last `*`.
        (#"{"/":"*a*a*a*a*a*a*a*a*a*b"}"#, "https://e.com/" + String(repeating: "a", count: 2000), .noMatch),
    ])
    func comparesAsDocumented(component: String, url: String, expected: MatchOutcome) throws {
        let json = #"{"applinks":{"details":[{"appID":"A.b","components":["# + component + "]}]}}"
        #expect(try Self.decide(json, url).outcome == expected)
    }

    @Test func documentDefaultsApplyToLegacyPathsToo() throws {
        let json = #"{"applinks":{"defaults":{"caseSensitive":false},"details":[{"appID":"A.b","paths":["/Help/*"]}]}}"#
        #expect(try Self.decide(json, "https://e.com/help/1").outcome == .match)
    }

    @Test func pathPatternsLoseTheirSlashRunsAndGainTheirParent() {
        #expect(AssociationFileLoader.pathPatterns("/buy/*") == ("buy/*", "buy"))
        #expect(AssociationFileLoader.pathPatterns("//abc//") == ("abc", nil))
        #expect(AssociationFileLoader.pathPatterns("/a/*/c") == ("a/*/c", nil))
        #expect(AssociationFileLoader.pathPatterns("/*") == ("*", nil))
        #expect(AssociationFileLoader.pathPatterns("/") == ("", nil))
    }
}

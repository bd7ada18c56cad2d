import Testing

@testable import AppFlipCore

@Suite struct RouteTableTests {
    static func file(_ appID: String, _ components: String) throws -> AssociationFile {
        try AssociationFile(json: Array(#"{"applinks":{"details":[{"appID":"\#(appID)","components":\#(components)}]}}"#.utf8))
    }

    static func route(_ appID: String, _ domains: [String], priority: Int = 0, components: String = #"[{"/":"*"}]"#) throws -> AppRoute {
        AppRoute(
            appID: appID,
            domains: try domains.map { try AssociatedDomain($0) },
            association: try file(appID, components),
            priority: priority
        )
    }

    static func matchedApp(_ result: RouteResult) -> String? {
        if case .matched(let candidate) = result { return candidate.appID }
        return nil
    }

    @Test func exactBeforeWildcardLongerSuffixFirstThenPriorityThenAppID() throws {
        let table = RouteTable([
            try Self.route("T.z-wild-short", ["applinks:*.example.com"], priority: 10),
            try Self.route("T.y-wild-long", ["applinks:*.shop.example.com"], priority: 5),
            try Self.route("T.x-exact-high", ["applinks:www.shop.example.com"], priority: 9),
            try Self.route("T.b-exact", ["applinks:www.shop.example.com"], priority: 1),
            try Self.route("T.a-exact", ["applinks:www.shop.example.com"], priority: 1),
        ])
        let order = table.explain(try RawURL("https://www.shop.example.com/x")).map(\.appID)
        #expect(order == ["T.x-exact-high", "T.a-exact", "T.b-exact", "T.y-wild-long", "T.z-wild-short"])
        #expect(Self.matchedApp(table.route(try RawURL("https://www.shop.example.com/x"))) == "T.x-exact-high")
        #expect(Self.matchedApp(table.route(try RawURL("https://api.shop.example.com/x"))) == "T.y-wild-long")
        #expect(Self.matchedApp(table.route(try RawURL("https://shop.example.com/x"))) == "T.z-wild-short")
        #expect(Self.matchedApp(table.route(try RawURL("https://example.com/x"))) == nil)
    }

    @Test func firstMatchWinsOverAnEarlierExclusion() throws {
        let table = RouteTable([
            try Self.route("T.first", ["applinks:example.com"], priority: 1, components: #"[{"/":"/private/*","exclude":true}]"#),
            try Self.route("T.second", ["applinks:example.com"], priority: 0, components: #"[{"/":"/private/*"}]"#),
        ])
        #expect(Self.matchedApp(table.route(try RawURL("https://example.com/private/1"))) == "T.second")
    }

    @Test func anExclusionWithoutAnyMatchExcludes() throws {
        let table = RouteTable([
            try Self.route("T.first", ["applinks:example.com"], priority: 2, components: #"[{"/":"/a"}]"#),
            try Self.route("T.second", ["applinks:example.com"], priority: 1, components: #"[{"/":"/private/*","exclude":true}]"#),
            try Self.route("T.third", ["applinks:example.com"], priority: 0, components: #"[{"/":"/private/*","exclude":true}]"#),
        ])
        guard case .excluded(let candidate) = table.route(try RawURL("https://example.com/private/1")) else {
            Issue.record("expected an exclusion")
            return
        }
        #expect(candidate.appID == "T.second")
        #expect(candidate.decision.pointer == "/applinks/details/0/components/0")
        guard case .noApp = table.route(try RawURL("https://example.com/public")) else {
            Issue.record("expected no app")
            return
        }
    }

    @Test func portsUserinfoAndOtherSchemesNeverRoute() throws {
        let table = RouteTable([try Self.route("T.a", ["applinks:example.com"])])
        for url in ["https://example.com:443/x", "https://u@example.com/x", "http://example.com/x"] {
            guard case .noApp = table.route(try RawURL(url)) else {
                Issue.record("\(url) routed")
                continue
            }
            #expect(table.explain(try RawURL(url)).isEmpty)
        }
    }

    @Test func addingReplacesAndRemovingForgets() throws {
        let url = try RawURL("https://example.com/x")
        let empty = RouteTable()
        let one = empty.adding(try Self.route("T.a", ["applinks:example.com"]))
        #expect(Self.matchedApp(one.route(url)) == "T.a")
        #expect(Self.matchedApp(empty.route(url)) == nil, "adding must not change the original table")
        let moved = one.adding(try Self.route("T.a", ["applinks:other.test"]))
        #expect(moved.count == 1)
        #expect(Self.matchedApp(moved.route(url)) == nil)
        #expect(Self.matchedApp(moved.route(try RawURL("https://other.test/x"))) == "T.a")
        let gone = moved.removing(appID: "T.a")
        #expect(gone.count == 0 && gone[appID: "T.a"] == nil)
        #expect(Self.matchedApp(gone.route(try RawURL("https://other.test/x"))) == nil)
        #expect(Self.matchedApp(moved.route(try RawURL("https://other.test/x"))) == "T.a")
    }

    @Test func anAppClaimingAHostTwiceIsListedOnce() throws {
        let table = RouteTable([try Self.route("T.a", ["applinks:*.example.com", "applinks:*.b.example.com", "applinks:*.example.com"])])
        let candidates = table.explain(try RawURL("https://a.b.example.com/x"))
        #expect(candidates.map(\.appID) == ["T.a"])
        #expect(candidates.first?.domain.description == "applinks:*.b.example.com")
    }

    @Test func tenThousandAppsRouteToTheirOwnHosts() throws {
        var table = RouteTable()
        for index in 0..<10_000 {
            let domains = index % 10 == 0 ? ["applinks:*.tenant\(index).example"] : ["applinks:app\(index).example"]
            table.add(try Self.route("T.app\(index)", domains, priority: index, components: #"[{"/":"/app\#(index)/*"}]"#))
        }
        #expect(table.count == 10_000)
        for index in stride(from: 0, to: 10_000, by: 97) {
            let host = index % 10 == 0 ? "www.tenant\(index).example" : "app\(index).example"
            #expect(Self.matchedApp(table.route(try RawURL("https://\(host)/app\(index)/page"))) == "T.app\(index)")
            // Another app's path on this host is not this app's.
            guard case .noApp = table.route(try RawURL("https://\(host)/app\(index + 1)/page")) else {
                Issue.record("\(host) routed a foreign path")
                continue
            }
        }
    }
}

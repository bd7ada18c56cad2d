import PropertyBased
import Testing

@testable import AppFlipCore

/// The host index against a brute-force reading of the precedence rules, on random registries.
@Suite struct RoutingPropertyTests {
    static let entitlements = [
        "applinks:example.com", "applinks:www.example.com", "applinks:a.b.example.com",
        "applinks:*.example.com", "applinks:*.b.example.com", "applinks:*.com", "applinks:other.test",
    ]
    static let hosts = ["example.com", "www.example.com", "a.b.example.com", "c.b.example.com", "x.com", "other.test", "WWW.Example.COM"]

    /// Precedence, read literally from docs/routing.md: exact before wildcard, longer suffix first, lower
    /// priority, app id; each app once, at its best place.
    static func expectedOrder(_ routes: [AppRoute], host: String) -> [String] {
        var best: [String: (Int, Int, Int, String)] = [:]
        for route in routes {
            for domain in route.domains where domain.matches(host: host) {
                let key = (domain.isWildcard ? 1 : 0, -domain.host.count, -route.priority, route.appID)
                if let known = best[route.appID], known <= key { continue }
                best[route.appID] = key
            }
        }
        return best.values.sorted { $0 < $1 }.map(\.3)
    }

    @Test func explainFollowsThePrecedenceRules() async throws {
        let file = try AssociationFile(json: Array(#"{"applinks":{"details":[]}}"#.utf8))
        await propertyCheck(
            count: 500,
            input: Gen.int(in: 0...6).array(of: 1...3).array(of: 0...8),
            Gen.int(in: 0...3).array(of: 8),
            Gen.int(in: 0...6)
        ) { domainChoices, priorities, hostChoice in
            // App ids are unique; a later registration of the same id would replace the earlier one.
            let routes = domainChoices.enumerated().map { index, choices in
                AppRoute(
                    appID: "T.app\(index % 3)\(index)",
                    domains: choices.map { try! AssociatedDomain(Self.entitlements[$0]) },
                    association: file,
                    priority: priorities[index % priorities.count]
                )
            }
            let table = RouteTable(routes)
            let host = Self.hosts[hostChoice]
            let order = table.explain(try! RawURL("https://\(host)/x")).map(\.appID)
            #expect(order == Self.expectedOrder(routes, host: host), "\(host)")
        }
    }

    @Test func removingEveryAppLeavesAnEmptyIndex() async throws {
        let file = try AssociationFile(json: Array(#"{"applinks":{"details":[]}}"#.utf8))
        await propertyCheck(count: 200, input: Gen.int(in: 0...6).array(of: 1...3).array(of: 0...8)) { domainChoices in
            var table = RouteTable()
            for (index, choices) in domainChoices.enumerated() {
                table.add(
                    AppRoute(
                        appID: "T.\(index)",
                        domains: choices.map { try! AssociatedDomain(Self.entitlements[$0]) },
                        association: file,
                        priority: 0
                    )
                )
            }
            for index in domainChoices.indices { table.remove(appID: "T.\(index)") }
            #expect(table.count == 0)
            for host in Self.hosts {
                #expect(table.explain(try! RawURL("https://\(host)/")).isEmpty)
            }
        }
    }
}

import HashTreeCollections

/// Every registered app, indexed by the hosts it claims, deciding which app opens a universal link.
///
/// Precedence between apps that claim the same URL, deterministic and documented in `docs/routing.md`:
/// exact-host domains before wildcard ones; among wildcards the longer suffix first; then higher `priority`;
/// then app id. The first candidate whose file matches wins; if none matches but one excludes, the URL is
/// excluded by the first that does; otherwise no app opens it.
///
/// Lookup goes through a host index, an exact-host dictionary plus a walk over the host's parent domains
/// for wildcards, so routing costs the same with 1 or 10,000 apps. The table is a value: the daemon can
/// swap in a new one per registration while requests in flight keep theirs. Its dictionaries are persistent
/// hash tries, so `adding(_:)` and `removing(appID:)` copy O(log n) nodes, not the table.
public struct RouteTable: Sendable {
    private var routes: TreeDictionary<String, AppRoute> = [:]
    private var exactHosts: TreeDictionary<String, [Entry]> = [:]
    private var wildcardSuffixes: TreeDictionary<String, [Entry]> = [:]

    /// One app's claim on one host. A class: walking a host's entries then copies one reference per entry,
    /// not the route's and the domain's strings.
    private final class Entry: Sendable {
        let route: AppRoute
        let domain: AssociatedDomain
        /// The app's `details` entries in its file, found once here rather than by app id per URL.
        let details: [Int]

        init(route: AppRoute, domain: AssociatedDomain) {
            self.route = route
            self.domain = domain
            self.details = route.association.details(listing: route.appID)
        }

        func decide(_ input: inout MatchInput) -> AppDecision {
            route.association.decide(details: details, input: &input)
        }

        func candidate(_ decision: AppDecision) -> Candidate {
            Candidate(appID: route.appID, domain: domain, decision: decision, priority: route.priority)
        }

        /// Within one host bucket: higher priority first, then app id.
        func precedes(_ other: Entry) -> Bool {
            (-route.priority, route.appID) < (-other.route.priority, other.route.appID)
        }
    }

    /// A table of `routes`; a later route with the same app id replaces an earlier one.
    public init(_ routes: [AppRoute] = []) {
        for route in routes { add(route) }
    }

    /// How many apps are registered.
    public var count: Int { routes.count }

    /// Every registered app id, sorted.
    public var appIDs: [String] { routes.keys.sorted() }

    /// The registered route of `appID`, if any.
    public subscript(appID appID: String) -> AppRoute? { routes[appID] }

    /// This table with `route` added, replacing any route of the same app id.
    public func adding(_ route: AppRoute) -> RouteTable {
        var table = self
        table.add(route)
        return table
    }

    /// This table without the route of `appID`.
    public func removing(appID: String) -> RouteTable {
        var table = self
        table.remove(appID: appID)
        return table
    }

    /// Adds `route`, replacing any route of the same app id.
    public mutating func add(_ route: AppRoute) {
        remove(appID: route.appID)
        routes[route.appID] = route
        var seen: Set<AssociatedDomain> = []
        for domain in route.domains where seen.insert(domain).inserted {
            let entry = Entry(route: route, domain: domain)
            if domain.isWildcard {
                Self.insert(entry, into: &wildcardSuffixes, key: domain.host)
            } else {
                Self.insert(entry, into: &exactHosts, key: domain.host)
            }
        }
    }

    /// Removes the route of `appID`; a table without it is left as it is.
    public mutating func remove(appID: String) {
        guard let route = routes.removeValue(forKey: appID) else { return }
        for domain in Set(route.domains) {
            if domain.isWildcard {
                Self.remove(appID, from: &wildcardSuffixes, key: domain.host)
            } else {
                Self.remove(appID, from: &exactHosts, key: domain.host)
            }
        }
    }

    /// Which app opens `url`. Only `https` URLs without userinfo or port are universal links.
    public func route(_ url: RawURL) -> RouteResult {
        guard AssociatedDomain.isUniversalLinkShaped(url) else { return .noApp }
        var input = MatchInput(url)
        // The entry and its decision, not a candidate: a `Candidate?` or `RouteResult?` kept across the
        // closure is destroyed through the runtime's generic value witnesses, a tenth of the routing.
        var matched: (Entry, AppDecision)?
        var firstExclusion: (Entry, AppDecision)?
        forEachEntry(claiming: url.host.lowercasedASCII) { entry in
            let decision = entry.decide(&input)
            switch decision.outcome {
            case .match:
                matched = (entry, decision)
                return false
            case .exclude:
                if firstExclusion == nil { firstExclusion = (entry, decision) }
            case .noMatch:
                break
            }
            return true
        }
        if let (entry, decision) = matched { return .matched(entry.candidate(decision)) }
        if let (entry, decision) = firstExclusion { return .excluded(entry.candidate(decision)) }
        return .noApp
    }

    /// Every app that claims `url`'s host, once each, in precedence order, with its decision: the whole
    /// story behind `route(_:)`.
    public func explain(_ url: RawURL) -> [Candidate] {
        guard AssociatedDomain.isUniversalLinkShaped(url) else { return [] }
        var input = MatchInput(url)
        var candidates: [Candidate] = []
        var seen: Set<String> = []
        forEachEntry(claiming: url.host.lowercasedASCII) { entry in
            if seen.insert(entry.route.appID).inserted {
                candidates.append(entry.candidate(entry.decide(&input)))
            }
            return true
        }
        return candidates
    }

    /// Calls `body` with each entry claiming `host`, in precedence order, until it returns false: the exact
    /// bucket, then the wildcard bucket of each parent domain, longest first (`a.b.example.com` looks up
    /// `b.example.com`, `example.com`, `com`). The cost depends on the host's labels, not on the table size.
    private func forEachEntry(claiming host: String, _ body: (Entry) -> Bool) {
        if let entries = exactHosts[host] {
            for entry in entries where !body(entry) { return }
        }
        // Most tables have no wildcard domain: then no parent domain is hashed and looked up.
        guard !wildcardSuffixes.isEmpty else { return }
        let bytes = host.utf8
        var rest = bytes[...]
        while let dot = rest.firstIndex(of: UInt8(ascii: ".")) {
            rest = rest[bytes.index(after: dot)...]
            guard !rest.isEmpty, let entries = wildcardSuffixes[String(decoding: rest, as: UTF8.self)] else { continue }
            for entry in entries where !body(entry) { return }
        }
    }

    private static func insert(_ entry: Entry, into index: inout TreeDictionary<String, [Entry]>, key: String) {
        var bucket = index[key] ?? []
        let position = bucket.firstIndex { entry.precedes($0) } ?? bucket.endIndex
        bucket.insert(entry, at: position)
        index[key] = bucket
    }

    private static func remove(_ appID: String, from index: inout TreeDictionary<String, [Entry]>, key: String) {
        guard var bucket = index[key] else { return }
        bucket.removeAll { $0.route.appID == appID }
        index[key] = bucket.isEmpty ? nil : bucket
    }
}

/// One app the route table knows: who it is, which hosts it claims, and what its association file says.
public struct AppRoute: Sendable {
    /// The app's id, `TEAMID.bundle.id`, as its AASA `appIDs` name it.
    public let appID: String
    /// The app's `applinks:` entitlements: the hosts it claims.
    public let domains: [AssociatedDomain]
    /// The compiled AASA document that decides which URLs on those hosts the app takes.
    public let association: AssociationFile
    /// Breaks ties between apps claiming the same host the same way: higher wins. The caller assigns it
    /// (appflipd gives statically configured apps lower numbers than live registrations).
    public let priority: Int

    /// Creates a route; higher `priority` wins when two apps claim the same host.
    public init(appID: String, domains: [AssociatedDomain], association: AssociationFile, priority: Int) {
        self.appID = appID
        self.domains = domains
        self.association = association
        self.priority = priority
    }
}

/// One app that claims a URL's host, and what its association file decided.
public struct Candidate: Sendable {
    /// The candidate app's id.
    public let appID: String
    /// The entitlement entry through which the app claims the host.
    public let domain: AssociatedDomain
    /// What the app's AASA said about the URL.
    public let decision: AppDecision
    /// The app's route priority; higher wins among matches.
    public let priority: Int

    /// Creates a candidate for the route table's answer.
    public init(appID: String, domain: AssociatedDomain, decision: AppDecision, priority: Int) {
        self.appID = appID
        self.domain = domain
        self.decision = decision
        self.priority = priority
    }
}

/// Which app, if any, opens a URL.
public enum RouteResult: Sendable {
    /// The first candidate, in precedence order, whose file matches the URL.
    case matched(Candidate)
    /// No candidate matches, and this one (the first to do so) excludes the URL explicitly.
    case excluded(Candidate)
    /// No app claims the host, or none of those that do has a rule for the URL.
    case noApp
}

// TEMPORARY ROUTING SHIM — delete at merge, when AppFlipCore's AASA/ and Routing/ land.
//
// It mirrors the core's routing API (AssociationFile, AppDecision, AssociatedDomain, AppRoute, RouteTable)
// with deliberately crude semantics so that the daemon can be built and tested before the core exists:
// hosts match exactly or by `*.` suffix; a component matches when its "/" glob (`*`, `?`) matches the raw
// path, or always when it has no "/"; the first deciding component wins; candidates are ordered by
// priority (higher first), then app id.
import AppFlipCore
import FoundationEssentials

enum MatchOutcome: String, Sendable, Hashable {
    case match
    case exclude
    case noMatch = "no_match"
}

struct AppDecision: Sendable, Hashable {
    var outcome: MatchOutcome
    var detailsIndex: Int?
    var componentIndex: Int?
    var rule: String
}

struct AASALoadError: Error, Sendable, CustomStringConvertible {
    var description: String
}

struct AssociationFile: Sendable {
    private struct Document: Decodable {
        struct AppLinks: Decodable {
            var details: [Detail]
        }
        struct Detail: Decodable {
            var appIDs: [String]
            var components: [Component]
        }
        struct Component: Decodable {
            var path: String?
            var exclude: Bool?
            enum CodingKeys: String, CodingKey {
                case path = "/"
                case exclude
            }
        }
        var applinks: AppLinks
    }

    private let document: Document
    let warnings: [String] = []

    init(json: some Collection<UInt8>) throws(AASALoadError) {
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(json))
        } catch {
            throw AASALoadError(description: "not an applinks document: \(error)")
        }
    }

    func decide(appID: String, url: RawURL) -> AppDecision {
        for (detailsIndex, detail) in document.applinks.details.enumerated() where detail.appIDs.contains(appID) {
            for (componentIndex, component) in detail.components.enumerated() {
                if let pattern = component.path, !Self.glob(Array(pattern.utf8)[...], Array(url.path.utf8)[...]) { continue }
                return AppDecision(
                    outcome: component.exclude == true ? .exclude : .match, detailsIndex: detailsIndex,
                    componentIndex: componentIndex, rule: "details[\(detailsIndex)].components[\(componentIndex)]")
            }
            return AppDecision(outcome: .noMatch, detailsIndex: detailsIndex, componentIndex: nil, rule: "details[\(detailsIndex)]")
        }
        return AppDecision(outcome: .noMatch, detailsIndex: nil, componentIndex: nil, rule: "no details entry for \(appID)")
    }

    private static func glob(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let head = pattern.first else { return text.isEmpty }
        if head == UInt8(ascii: "*") {
            var rest = text
            while true {
                if glob(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let first = text.first, head == UInt8(ascii: "?") || head == first else { return false }
        return glob(pattern.dropFirst(), text.dropFirst())
    }
}

struct AssociatedDomain: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let isWildcard: Bool

    init(_ string: String) throws(AASALoadError) {
        guard string.hasPrefix("applinks:"), string.count > 9 else {
            throw AASALoadError(description: "\"\(string)\" is not applinks:host")
        }
        var host = String(string.dropFirst(9)).lowercased()
        isWildcard = host.hasPrefix("*.")
        if isWildcard { host.removeFirst(2) }
        guard !host.isEmpty, !host.contains("/"), !host.contains("*") else {
            throw AASALoadError(description: "\"\(string)\" has no usable host")
        }
        self.host = host
    }

    var description: String { "applinks:" + (isWildcard ? "*." : "") + host }

    func covers(host candidate: String) -> Bool {
        let candidate = candidate.lowercased()
        return isWildcard ? candidate.hasSuffix("." + host) : candidate == host
    }
}

struct AppRoute: Sendable {
    var appID: String
    var domains: [AssociatedDomain]
    var association: AssociationFile
    var priority: Int
}

struct Candidate: Sendable {
    var appID: String
    var domain: AssociatedDomain
    var decision: AppDecision
}

enum RouteResult: Sendable {
    case matched(Candidate)
    case excluded(Candidate)
    case noApp
}

struct RouteTable: Sendable {
    private var routes: [AppRoute]

    init(_ routes: [AppRoute]) {
        self.routes = routes.sorted { ($0.priority, $1.appID) > ($1.priority, $0.appID) }
    }

    func adding(_ route: AppRoute) -> RouteTable { RouteTable(routes + [route]) }

    func removing(appID: String) -> RouteTable { RouteTable(routes.filter { $0.appID != appID }) }

    func explain(_ url: RawURL) -> [Candidate] {
        routes.compactMap { route in
            guard let domain = route.domains.first(where: { $0.covers(host: url.host) }) else { return nil }
            return Candidate(appID: route.appID, domain: domain, decision: route.association.decide(appID: route.appID, url: url))
        }
    }

    func route(_ url: RawURL) -> RouteResult {
        for candidate in explain(url) {
            switch candidate.decision.outcome {
            case .match: return .matched(candidate)
            case .exclude: return .excluded(candidate)
            case .noMatch: continue
            }
        }
        return .noApp
    }
}

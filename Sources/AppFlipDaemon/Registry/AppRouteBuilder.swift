import AppFlipCore
import AppFlipProtocol
import FoundationEssentials

/// Turns an app id, associated domains and an AASA document into a route, for app files and `register`.
enum AppRouteBuilder {
    static func route(appID: String, domains: [String], associationJSON: [UInt8], priority: Int) throws(ErrorBody) -> (AppRoute, warnings: [String]) {
        try checkAppID(appID)
        guard !domains.isEmpty else {
            throw ErrorBody(.invalidAssociation, "`domains` must list at least one applinks: domain", field: "domains")
        }
        var associated: [AssociatedDomain] = []
        for (index, domain) in domains.enumerated() {
            do {
                associated.append(try AssociatedDomain(domain))
            } catch {
                throw ErrorBody(.invalidAssociation, "\"\(domain)\" is not an associated domain: \(error)", field: "domains[\(index)]")
            }
            guard DomainClaim(domain) != nil else {
                throw ErrorBody(.invalidAssociation, "\"\(domain)\" is not applinks:host or applinks:*.host", field: "domains[\(index)]")
            }
        }
        let association: AssociationFile
        do {
            association = try AssociationFile(json: associationJSON)
        } catch {
            throw ErrorBody(.invalidAssociation, "the AASA document cannot be used: \(error)", field: "association")
        }
        return (
            AppRoute(appID: appID, domains: associated, association: association, priority: priority),
            association.warnings.map { "\($0)" }
        )
    }

    /// Refuses an app id no app can have: empty, or with white space.
    static func checkAppID(_ appID: String) throws(ErrorBody) {
        guard !appID.isEmpty, !appID.contains(where: \.isWhitespace) else {
            throw ErrorBody(.invalidAssociation, "`appID` must be a non-empty TEAMID.bundle.id", field: "appID")
        }
    }

    /// The AASA bytes of a `register` request: its `association`, or its `components` wrapped in a document
    /// with one `details` entry for the app.
    static func associationJSON(of request: RegisterRequest) throws(ErrorBody) -> [UInt8] {
        let document: JSONValue
        switch (request.association, request.components) {
        case (let association?, nil):
            document = association
        case (nil, let components?):
            document = .object([
                "applinks": .object([
                    "details": .array([
                        .object(["appIDs": .array([.string(request.appID)]), "components": .array(components)])
                    ])
                ])
            ])
        default:
            throw ErrorBody(.invalidRequest, "give exactly one of `association` and `components`", field: "association")
        }
        do {
            return Array(try JSONEncoder().encode(document))
        } catch {
            throw ErrorBody(.invalidAssociation, "the AASA document cannot be encoded: \(error)", field: "association")
        }
    }
}

/// Route precedence: live apps rank above every static app, so that a live app allowed to override
/// (`claimPolicy.overrideUIDs`) wins the URLs it shares with the static app it overrides.
enum RoutePriority {
    static let live = 1_000_000
    /// The range of `priority` in an `apps.d` file.
    static let staticRange = -1000...1000
}

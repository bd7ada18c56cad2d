import AppFlipCore
import ArgumentParser

/// One decided case, shared by the single-URL form and the line protocol.
struct AASAMatchOutcome {
    let decision: AppDecision
    /// Set when the URL is not on the domain, so no rule was consulted.
    let offDomain: AssociatedDomain?
    let warnings: [AASADiagnostic]

    /// Decides `url` for `appID`. An empty or absent `domain` skips the host check (the corpus's convention
    /// for testing a file on its own); otherwise the URL must be https, without port or userinfo, on it.
    static func decide(file: AssociationFile, appID: String, url text: String, domain: String?) throws -> AASAMatchOutcome {
        let url: RawURL
        do {
            url = try RawURL(text)
        } catch {
            throw AASAMatchInputError(description: "the URL \"\(text)\" is not usable: \(error)")
        }
        if let domain, !domain.isEmpty {
            let associated: AssociatedDomain
            do {
                associated = try AssociatedDomain(domain.hasPrefix("applinks:") ? domain : "applinks:" + domain)
            } catch {
                throw AASAMatchInputError(description: "the domain is not usable: \(error)")
            }
            guard associated.matches(url) else {
                return AASAMatchOutcome(decision: .noMatch, offDomain: associated, warnings: file.warnings)
            }
        }
        return AASAMatchOutcome(decision: file.decide(appID: appID, url: url), offDomain: nil, warnings: file.warnings)
    }

    func textDescription(appID: String, url: String) -> String {
        var lines = [decision.outcome.rawValue]
        if let offDomain {
            lines.append("  \(url) is not a universal link of \(offDomain) (https, no port, no userinfo, that host)")
        } else if let rule = decision.rule, let pointer = decision.pointer {
            lines.append("  rule:    \(rule)")
            lines.append("  at:      \(pointer)")
        } else {
            lines.append("  no rule for \(appID) decides \(url)")
        }
        return lines.joined(separator: "\n")
    }

    func jsonDescription(appID: String, url: String) -> String {
        var members: [String: JSONValue] = [
            "decision": .string(decision.outcome.rawValue),
            "appId": .string(appID),
            "url": .string(url),
        ]
        if let rule = decision.rule { members["rule"] = .string(rule) }
        if let pointer = decision.pointer { members["pointer"] = .string(pointer) }
        if let index = decision.detailsIndex { members["detailsIndex"] = .number(Double(index)) }
        if let index = decision.componentIndex { members["componentIndex"] = .number(Double(index)) }
        if let offDomain { members["offDomain"] = .string(offDomain.description) }
        return JSONValue.object(members).compactJSON
    }
}

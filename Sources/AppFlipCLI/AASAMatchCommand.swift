import AppFlipCore
import ArgumentParser

/// `appflip aasa match`: what an association file decides for one URL, and which rule decided, like
/// `swcutil match`; or, with `--stdin`, the line protocol of the AASA conformance corpus.
struct AASAMatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Decide a URL against an apple-app-site-association file for one app.",
        usage: """
            appflip aasa match --aasa <file> --app-id <app-id> [--domain <domain>] [--json] <url>
            appflip aasa match --stdin
            """,
        discussion: """
            The decision is match, exclude (a rule with "exclude": true or a legacy "NOT " path decided) \
            or no_match, with the rule that made it. With --domain, a URL on another host is no_match, \
            as it is on a device; without it the host is not checked.

            --stdin speaks the protocol of the AASA conformance corpus (PROTOCOL.md): one JSON object per \
            line in, {"id":…,"aasa":{…},"domain":"…","appId":"…","url":"…"}; one line per case out, \
            {"id":…,"decision":"match"|"exclude"|"no_match"}. A case that cannot be decided is answered \
            {"id":…,"decision":"error","error":"…"} and the run goes on.

            Exit status: 0 when the URL matches; 1 when it is excluded or not matched; 2 when the file, \
            the URL or the domain cannot be used. With --stdin: 0 when every case was decided, 2 when at \
            least one case was answered with an error. 64 when the command line itself is wrong.
            """
    )

    @Option(help: "The apple-app-site-association file.")
    var aasa: String?

    @Option(name: .customLong("app-id"), help: "The app identifier, e.g. ABCDE12345.com.example.app.")
    var appID: String?

    @Option(help: "The domain that serves the file (example.com or *.example.com); the URL's host must match it.")
    var domain: String?

    @Flag(help: "Print the decision as one JSON object.")
    var json = false

    @Flag(help: "Read cases from standard input, one JSON object per line, and answer each on its own line.")
    var stdin = false

    @Argument(help: "The URL to decide.")
    var url: String?

    func validate() throws {
        if stdin {
            guard aasa == nil, appID == nil, domain == nil, url == nil, !json else {
                throw ValidationError("--stdin reads everything from standard input; give it no file, app id, domain or URL")
            }
        } else {
            guard aasa != nil else { throw ValidationError("missing --aasa <file>") }
            guard appID != nil else { throw ValidationError("missing --app-id <app-id>") }
            guard url != nil else { throw ValidationError("missing the URL to decide") }
        }
    }

    func run() throws {
        if stdin {
            if !AASAMatchStream.run() { throw ExitCode(2) }
            return
        }
        guard let aasa, let appID, let url else { return }
        let bytes = try AASAFileReader.read(aasa)
        let outcome: AASAMatchOutcome
        do {
            outcome = try AASAMatchOutcome.decide(file: AssociationFile(json: bytes), appID: appID, url: url, domain: domain)
        } catch let error as AASALoadError {
            for diagnostic in error.diagnostics { AASAStandardStreams.writeError(diagnostic.description) }
            AASAStandardStreams.writeError("appflip: \(aasa) was refused; run `appflip aasa validate \(aasa)` for details")
            throw ExitCode(2)
        } catch {
            AASAStandardStreams.writeError("appflip: \(error)")
            throw ExitCode(2)
        }
        for warning in outcome.warnings { AASAStandardStreams.writeError("warning: " + warning.description) }
        print(json ? outcome.jsonDescription(appID: appID, url: url) : outcome.textDescription(appID: appID, url: url))
        if outcome.decision.outcome != .match { throw ExitCode(1) }
    }
}

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

/// A URL or domain given to `aasa match` that cannot be used.
struct AASAMatchInputError: Error, CustomStringConvertible {
    let description: String
}

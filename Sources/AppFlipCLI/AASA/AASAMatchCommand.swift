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
            for diagnostic in error.diagnostics { StandardStreams.writeError(diagnostic.description) }
            StandardStreams.writeError("appflip: \(aasa) was refused; run `appflip aasa validate \(aasa)` for details")
            throw ExitCode(2)
        } catch {
            StandardStreams.writeError("appflip: \(error)")
            throw ExitCode(2)
        }
        for warning in outcome.warnings { StandardStreams.writeError("warning: " + warning.description) }
        print(json ? outcome.jsonDescription(appID: appID, url: url) : outcome.textDescription(appID: appID, url: url))
        if outcome.decision.outcome != .match { throw ExitCode(1) }
    }
}

/// A URL or domain given to `aasa match` that cannot be used.
struct AASAMatchInputError: Error, CustomStringConvertible {
    let description: String
}

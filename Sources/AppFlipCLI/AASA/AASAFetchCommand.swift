import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser
import FoundationEssentials

/// `appflip aasa fetch DOMAIN`: the hosted file, fetched as iOS fetches it, checked and loaded.
struct AASAFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a domain's hosted apple-app-site-association file as iOS does, and load it.",
        discussion: """
            Devices fetch through Apple's CDN (https://app-site-association.cdn-apple.com/a/v1/DOMAIN) \
            unless the associated domain carries ?mode=developer; so does this command (--cdn-base points \
            at a mirror). The fetch follows no redirect, needs 200 and application/json, reads at most \
            128 KB, and verifies TLS against the system's trust store (or --ca-file). The loaded file's \
            warnings go to stderr; the file, as served, to stdout or -o FILE. docs/routing.md lists the \
            hosting rules and their sources.

            Exit status: 0 the file was fetched and loaded; 2 a rule failed (the rule and what was seen go \
            to stderr); 1 the fetch could not run (the host did not answer, the CA file is unreadable, \
            FILE cannot be written); 64 the command line is wrong.
            """
    )

    @OptionGroup var hosted: AASAHostedOptions

    @Option(name: .shortAndLong, help: "Write the file here instead of to standard output.")
    var output: String?

    func run() async throws {
        let options = try hosted.fetchOptions()
        let domain = try hosted.associatedDomain().host
        let report = await HostedCheckRunner(options: options).run(AASAFileCheck(appID: nil), host: domain)
        if let reason = report.couldNotRun {
            StandardStreams.writeError("appflip: could not run: \(reason) (\(report.url))")
            throw ExitCode(1)
        }
        for diagnostic in report.details.refusal { StandardStreams.writeError(diagnostic.description) }
        if let failure = report.failures.first {
            StandardStreams.writeError("appflip: \(failure.rule): \(failure.evidence) (\(report.url))")
            StandardStreams.writeError("  rule: \(failure.title); \(failure.source)")
            throw ExitCode(2)
        }
        for warning in report.details.loaderWarnings { StandardStreams.writeError("warning: " + warning.description) }
        let bytes = report.details.bytes ?? []
        if let output {
            do {
                try Data(bytes).write(to: URL(filePath: output))
            } catch {
                StandardStreams.writeError("appflip: cannot write \(output): \(error)")
                throw ExitCode(1)
            }
            StandardStreams.writeError("\(report.url): \(bytes.count) bytes written to \(output)")
        } else {
            StandardStreams.writeOutput(bytes)
        }
    }
}

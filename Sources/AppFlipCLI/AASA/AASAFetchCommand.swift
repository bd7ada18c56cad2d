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

            Exit status: 0 the file was fetched and loaded; 2 a hosting rule failed (the rule and what was \
            seen go to stderr); 1 the fetch could not run (the host did not answer, the CA file is \
            unreadable, FILE cannot be written); 64 the command line is wrong.
            """
    )

    @OptionGroup var hosted: AASAHostedOptions

    @Option(name: .shortAndLong, help: "Write the file here instead of to standard output.")
    var output: String?

    func run() async throws {
        let options = try hosted.fetchOptions()
        let domain = try hosted.associatedDomain().host
        let fetched: HostedAssociationFile
        do {
            fetched = try await HostedAssociationFetcher.fetch(domain: domain, options: options)
        } catch {
            for diagnostic in error.diagnostics { AASAStandardStreams.writeError(diagnostic.description) }
            AASAStandardStreams.writeError("appflip: \(error)")
            AASAStandardStreams.writeError("  rule: \(error.rule.title); \(error.rule.source)")
            throw ExitCode(error.isUnreachable ? 1 : 2)
        }
        for warning in fetched.file.warnings { AASAStandardStreams.writeError("warning: " + warning.description) }
        if let output {
            do {
                try Data(fetched.bytes).write(to: URL(filePath: output))
            } catch {
                AASAStandardStreams.writeError("appflip: cannot write \(output): \(error)")
                throw ExitCode(1)
            }
            AASAStandardStreams.writeError("\(fetched.url): \(fetched.bytes.count) bytes written to \(output)")
        } else {
            AASAStandardStreams.writeOutput(fetched.bytes)
        }
    }
}

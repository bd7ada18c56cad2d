import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

/// `appflip aasa check DOMAIN --app-id ID`: the hosted file as iOS would use it for one app: every hosting
/// rule, each URL's decision, and drift from a committed file.
struct AASACheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a domain's hosted apple-app-site-association file for an app, as iOS would use it.",
        discussion: """
            Fetches the file as `appflip aasa fetch` does, then checks, each by its rule id: every hosting \
            rule (aasa.hosted-https, aasa.hosted-no-redirect, aasa.hosted-status, \
            aasa.hosted-content-type, aasa.hosted-size), that it loads (aasa.valid), that it names the app \
            (aasa.app-id), that each --url is routed to the app (aasa.url-decision: the deciding rule must \
            be a match), and with --compare FILE that the hosted file means what the committed one means \
            (aasa.drift: apps that appear or vanish, URLs whose decision or deciding rule changed, on the \
            --url URLs and one URL per path pattern of either file). docs/routing.md gives each rule's source.

            Exit status: 0 every check passed (warnings allowed); 2 a check failed; 1 the check could not \
            run (the host did not answer, a file cannot be read, the committed file is refused); 64 the \
            command line is wrong. These are `appflip audit`'s; `aasa validate` and `aasa match` answer \
            for one local file and keep theirs.
            """
    )

    @OptionGroup var hosted: AASAHostedOptions

    @Option(name: .customLong("app-id"), help: "The app identifier the file must serve, e.g. ABCDE12345.com.example.app.")
    var appID: String

    @Option(name: .customLong("url"), help: "A universal link the file must route to the app (repeatable).")
    var urls: [String] = []

    @Option(help: "A committed apple-app-site-association file to compare the hosted one with.")
    var compare: String?

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    @Option(help: "Also write the report as JUnit XML to this file: one testcase per check.")
    var junit: String?

    func validate() throws {
        for url in urls {
            do {
                _ = try RawURL(url)
            } catch {
                throw ValidationError("--url \(url) is not a URL: \(error)")
            }
        }
    }

    func run() async throws {
        let options = try hosted.fetchOptions()
        let domain = try hosted.associatedDomain().host
        let check = AASAFileCheck(appID: appID, urls: urls.compactMap { try? RawURL($0) }, committed: try compare.map(Self.committedFile))
        let report = await HostedCheckRunner(options: options).run(check, host: domain)
        try HostedReportOutput.write(report, json: json, junit: junit)
    }

    /// The committed file, loaded; unreadable or refused means the comparison cannot run (exit status 1).
    static func committedFile(_ path: String) throws -> AssociationFile {
        let bytes: [UInt8]
        do {
            bytes = try AASAFileReader.read(path)
        } catch {
            throw ExitCode(1)
        }
        do {
            return try AssociationFile(json: bytes)
        } catch {
            for diagnostic in error.errors { StandardStreams.writeError(diagnostic.description) }
            StandardStreams.writeError("appflip: the committed file \(path) was refused, so there is nothing to compare with")
            throw ExitCode(1)
        }
    }
}

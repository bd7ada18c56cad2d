import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser
import FoundationEssentials

/// `appflip aasa check DOMAIN --app-id ID`: the hosted file as iOS would use it for one app: every hosting
/// rule, each URL's decision, and drift from a committed file.
struct AASACheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a domain's hosted apple-app-site-association file for an app, as iOS would use it.",
        discussion: """
            Fetches the file as `appflip aasa fetch` does, then checks, each by its rule id: every hosting \
            rule (hosting.https, hosting.no-redirect, hosting.status, hosting.content-type, hosting.size), \
            that it loads (file.valid), that it names the app (file.app-id), that each --url is routed to \
            the app (url.decision: the deciding rule must be a match), and with --compare FILE that the \
            hosted file means what the committed one means (drift: apps that appear or vanish, URLs whose \
            decision or deciding rule changed, on the --url URLs and one URL per path pattern of either \
            file). docs/routing.md gives each rule's source.

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
        let committed = try compare.map(Self.committedFile)
        let report = await HostedAssociationChecker(fetcher: HostedAssociationFetcher(options: options)).check(
            domain: domain,
            appID: appID,
            urls: urls.compactMap { try? RawURL($0) },
            committed: committed
        )
        if let junit {
            do {
                try Data(report.junitXML.utf8).write(to: URL(filePath: junit))
            } catch {
                AASAStandardStreams.writeError("appflip: cannot write \(junit): \(error)")
                throw ExitCode(1)
            }
        }
        if json {
            AASAStandardStreams.writeLine(report.json.compactJSON)
        } else {
            Self.printText(report)
        }
        if report.couldNotRun != nil { throw ExitCode(1) }
        if !report.failures.isEmpty { throw ExitCode(2) }
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
            for diagnostic in error.errors { AASAStandardStreams.writeError(diagnostic.description) }
            AASAStandardStreams.writeError("appflip: the committed file \(path) was refused, so there is nothing to compare with")
            throw ExitCode(1)
        }
    }

    static func printText(_ report: HostedAssociationReport) {
        AASAStandardStreams.writeLine("\(report.domain) for \(report.appID) (\(report.url))")
        if let failure = report.couldNotRun {
            AASAStandardStreams.writeLine("could not run: \(failure.evidence)")
            return
        }
        for check in report.checks { AASAStandardStreams.writeLine(check.textLine) }
        for warning in report.warnings { AASAStandardStreams.writeLine("⚠ " + warning.description) }
        let failures = report.failures
        AASAStandardStreams.writeLine(
            failures.isEmpty
                ? "\(report.checks.count) checks passed"
                : "\(failures.count) of \(report.checks.count) checks failed: " + failures.map(\.rule).joined(separator: ", ")
        )
    }
}

extension HostedAssociationCheck {
    /// The check as `aasa check` and `assetlinks check` print it: a mark, the check's name and the evidence.
    var textLine: String {
        let mark =
            switch status {
            case .passed: "✔"
            case .failed: "✘"
            case .skipped: "–"
            }
        return "\(mark) \(name): \(evidence)"
    }
}

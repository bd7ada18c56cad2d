import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser
import FoundationEssentials

/// `appflip assetlinks check DOMAIN --package P --fingerprint F`: the hosted statement list as Android's two
/// verifiers would judge it for one app, on each Android generation, what it decides for each `--url`, and its
/// drift from a committed file.
struct AssetLinksCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a host's assetlinks.json for an app as Android's two verifiers would, per Android generation.",
        discussion: """
            Fetches the file as `appflip assetlinks fetch` does (or reads --file FILE, whose hosting rules \
            and includes are then not checked), then checks, each by its rule id: assetlinks.hosted-https, \
            assetlinks.hosted-no-redirect, assetlinks.hosted-status, assetlinks.hosted-content-type (Google's \
            verifier only), assetlinks.hosted-size (StatementService only), assetlinks.valid (every \
            statement list read, each mistake named with its DAL code, line and column), \
            assetlinks.delegates, assetlinks.google-verifies, assetlinks.statement-service-verifies, for each \
            --url assetlinks.url-decision (the URL is a link of the host and, on Android 15, the delegating \
            statement's dynamic rules let the app open it; before 15 the manifest alone decides), and with \
            --compare FILE assetlinks.drift (delegated package/fingerprint pairs that appear or vanish, \
            verdicts that change). It prints each verifier's predicted `pm get-app-links` state on Android \
            11 and earlier, 12-14 and 15+. A hosting rule that breaks is reported once: the checks it leaves \
            nothing to judge for are skipped. docs/android.md gives each rule's source.

            Exit status: 0 every check passed; 2 a check failed; 1 the check could not run (the host did \
            not answer, a file or the CA file cannot be read); 64 the command line is wrong.
            """
    )

    @Argument(help: "The host, e.g. example.com (with --file: the host the file is for; default localhost).")
    var domain: String?

    @Option(help: "Check this local statement list instead of fetching one.")
    var file: String?

    @Option(help: "The app's package name, e.g. com.example.app.")
    var package: String

    @Option(
        name: .customLong("fingerprint"),
        help: "The app's signing certificate SHA-256 fingerprint, 32 upper-case hex pairs with colons (repeatable: rotated keys)."
    )
    var fingerprints: [String] = []

    @Option(help: "A committed statement list to compare the hosted one with.")
    var compare: String?

    @Option(name: .customLong("url"), help: "A link of the host that the file must let the app open on Android 15 (repeatable).")
    var urls: [String] = []

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    @Option(help: "Also write the report as JUnit XML to this file: one testcase per check.")
    var junit: String?

    @OptionGroup var hosted: AssetLinksHostedOptions

    func validate() throws {
        guard domain != nil || file != nil else { throw ValidationError("name the DOMAIN to fetch, or a --file to check") }
        if let domain { _ = try AssetLinksHostedOptions.host(domain) }
        if let problem = AndroidIdentity(package: package, fingerprints: fingerprints).problem() {
            throw ValidationError("--\(problem.field?.hasPrefix("fingerprints") == true ? "fingerprint" : "package"): \(problem.message)")
        }
    }

    func run() async throws {
        let host = try domain.map(AssetLinksHostedOptions.host) ?? "localhost"
        let committed = try compare.map(Self.read)
        let lists: HostedStatementLists
        if let file {
            let body = try Self.read(file)
            let url = StatementServiceVerifier.statementListURL(forManifestHost: host)
            let response = HostResponse(status: 200, contentType: "application/json", contentLength: body.count, body: body)
            lists = HostedStatementLists(
                host: host,
                fetches: [AssetLinksFetch(url: url, fetchedFrom: file, result: .response(response), overSize: false)]
            )
        } else {
            do {
                lists = try await AssetLinksFetcher(options: hosted.fetchOptions).fetch(host: host)
            } catch {
                AASAStandardStreams.writeError("appflip: \(error)")
                throw ExitCode(1)
            }
        }
        let report = AssetLinksChecker(package: package, fingerprints: fingerprints)
            .check(lists, hosted: file == nil, committed: committed, urls: urls)
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

    /// A local statement list; unreadable means the check cannot run (exit status 1).
    static func read(_ path: String) throws -> [UInt8] {
        do {
            return try ConfigurationFile.read(path)
        } catch {
            AASAStandardStreams.writeError("appflip: \(error)")
            throw ExitCode(1)
        }
    }

    static func printText(_ report: AssetLinksReport) {
        AASAStandardStreams.writeLine("\(report.url) for \(report.package)")
        if let reason = report.couldNotRun {
            AASAStandardStreams.writeLine("could not run: \(reason)")
            return
        }
        for check in report.checks { AASAStandardStreams.writeLine(check.textLine) }
        for document in report.documents {
            for diagnostic in document.list.diagnostics { AASAStandardStreams.writeLine("  \(document.url) \(diagnostic)") }
        }
        AASAStandardStreams.writeLine("predicted pm get-app-links state:")
        for row in report.predictions {
            AASAStandardStreams.writeLine("  \(row.verifier.rawValue) \(row.generation.rawValue): \(row.verdict.state) (\(row.verdict.reason))")
        }
        let failures = report.failures
        AASAStandardStreams.writeLine(
            failures.isEmpty
                ? "\(report.checks.count) checks passed"
                : "\(failures.count) of \(report.checks.count) checks failed: " + failures.map(\.name).joined(separator: ", ")
        )
    }
}

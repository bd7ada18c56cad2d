import AppFlipConfiguration
import AppFlipCore
import AppFlipHTTPClient
import ArgumentParser

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
            verifier only), assetlinks.hosted-size (over 1 MiB), assetlinks.valid (every \
            statement list read, each mistake named with its DAL code, line and column), \
            assetlinks.delegates, assetlinks.google-verifies, assetlinks.statement-service-verifies, for each \
            --url assetlinks.url-decision (the URL is a link of the host and, on Android 15, the delegating \
            statement's dynamic rules let the app open it; before 15 the manifest alone decides), and with \
            --compare FILE assetlinks.drift (delegated package/fingerprint pairs that appear or vanish, \
            verdicts that change). It prints each verifier's predicted `pm get-app-links` state on Android \
            11 and earlier, 12-14 and 15+, and the Digital Asset Links API's outcome and error codes for the \
            same files, each diagnostic's beside it. A hosting rule that breaks is reported once: the checks \
            it leaves nothing to judge for are skipped. docs/android.md gives each rule's source.

            Exit status: 0 every check passed; 2 a check failed; 1 the check could not run (the host did \
            not answer, a body was cut short, a file or the CA file cannot be read); 64 the command line is \
            wrong.
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
        let check = AssetLinksFileCheck(package: package, fingerprints: fingerprints, urls: urls, committed: try compare.map(Self.read))
        let report =
            if let file {
                check.check(localFile: try Self.read(file), path: file, host: host)
            } else {
                await HostedCheckRunner(options: hosted.fetchOptions).run(check, host: host)
            }
        try HostedReportOutput.write(report, json: json, junit: junit)
    }

    /// A local statement list; unreadable means the check cannot run (exit status 1).
    static func read(_ path: String) throws -> [UInt8] {
        do {
            return try ConfigurationFile.read(path)
        } catch {
            StandardStreams.writeError("appflip: \(error)")
            throw ExitCode(1)
        }
    }
}

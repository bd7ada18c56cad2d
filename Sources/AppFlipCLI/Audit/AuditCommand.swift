import AppFlipAudit
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import AppFlipProtocol
import ArgumentParser
import AsyncHTTPClient
import FoundationEssentials

/// `appflip audit`: every App Flip rule that applies to what it is pointed at, each reported with its id,
/// rule, source and redacted evidence.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Check a partner's App Flip integration against every rule, and name the rule it breaks.",
        discussion: """
            Targets, each optional (checks without theirs are skipped, and say so): the partner app through \
            appflipd (--link, --client-id, --scope), the authorization endpoint (--authorize-url and a sign-in \
            credential), the token endpoint (--token-url and --client-secret, or --oauth-config; it needs codes \
            from the partner app or the authorization endpoint) and the association file (--aasa-file, or the \
            hosted one with --aasa-domain and its hosting rules; with --app-id) and the Android association file \
            (--assetlinks-file, or the hosted one with --assetlinks-domain; with --android-package and --fingerprint) \
            and the app's own build artifacts (--app: an APK, AAB or manifest, an .ipa or its parts). \
            docs/audit.md lists every check with its rule and source.
            Secrets stay out of ps: --client-secret, --cookie, --header and --bearer each also come from a file \
            (--client-secret-file …) or, when neither option is given, from $APPFLIP_CLIENT_SECRET, \
            $APPFLIP_COOKIE, $APPFLIP_HEADER or $APPFLIP_BEARER.
            Every HTTP request is bounded (10 s for the whole exchange, 64 KiB of body, 80 KiB of headers, no \
            redirect followed but the authorization endpoint's own, nothing decompressed) and so is the whole run (--timeout, default 60 s): a server that \
            hits a bound is reported as what it did, and the audit could not run.
            Exit status: 0 no check failed (warnings allowed), 2 a rule failed, 1 the audit could not run fully (what \
            was unreachable, or a need its own input could not establish: a refused sign-in, an endpoint down, \
            options the partner's registration contradicts, an app whose user cannot link), 64 usage error.
            """
    )

    @Option(help: "The partner's universal link, without the App Flip parameters, e.g. https://partner.appflip.test/link/flip.")
    var link: String?

    @Option(name: .customLong("client-id"), help: "Google's client_id at the partner.")
    var clientID: String?

    @Option(name: .customLong("scope"), help: "A scope the Google app asks for; repeat for several. Required with --link or --authorize-url.")
    var scopes: [String] = []

    @Option(help: "The authorization endpoint, called as the signed-in user; only redirects on its own origin are followed.")
    var authorizeURL: String?

    @Option(help: "The sign-in cookie for --authorize-url (the Cookie header's value). Shown by ps: prefer --cookie-file or $APPFLIP_COOKIE.")
    var cookie: String?

    @Option(help: "A file holding the sign-in cookie (one final line break is ignored).")
    var cookieFile: String?

    @Option(help: "A sign-in header for --authorize-url, as 'Name: value'. Shown by ps: prefer --header-file or $APPFLIP_HEADER.")
    var header: String?

    @Option(help: "A file holding the sign-in header, 'Name: value' (one final line break is ignored).")
    var headerFile: String?

    @Option(help: "A sign-in bearer token for --authorize-url. Shown by ps: prefer --bearer-file or $APPFLIP_BEARER.")
    var bearer: String?

    @Option(help: "A file holding the sign-in bearer token (one final line break is ignored).")
    var bearerFile: String?

    @OptionGroup var tokenEndpointOptions: TokenEndpointOptions

    @Option(
        help: """
            How Google's client authenticates at the token endpoint, as configured in the Actions console: post \
            (client_secret_post, Google's default) or basic (HTTP Basic). Both are tried; refusing this one fails.
            """
    )
    var clientAuth: String = "post"

    @Option(help: "A protected resource a valid access token must open, e.g. the embedded server's /userinfo.")
    var resourceURL: String?

    @Option(help: "The RFC 7009 revocation endpoint Google calls when a user unlinks, e.g. the embedded server's /revoke.")
    var revokeURL: String?

    @Flag(
        help:
            "Also run the slow checks: a code older than 10 minutes must be refused, a refresh must work once the access token expired (waits 10 minutes)."
    )
    var slow = false

    @OptionGroup var families: AuditFamilyOptions

    @Option(help: "An apple-app-site-association file to check.")
    var aasaFile: String?

    @Option(
        help: """
            A domain whose hosted apple-app-site-association file to check, with its hosting rules, fetched as \
            `appflip aasa check` fetches it (example.com through Apple's CDN, or example.com?mode=developer from \
            the domain itself; 10 seconds at most).
            """
    )
    var aasaDomain: String?

    @OptionGroup var aasaFetch: AASAFetchSourceOptions

    @Option(help: "The partner's app id for --aasa-file or --aasa-domain, TEAMID.bundle.id.")
    var appID: String?

    @Option(help: "An Android statement list (assetlinks.json) to check for --android-package and --fingerprint.")
    var assetlinksFile: String?

    @Option(
        help: """
            A host whose /.well-known/assetlinks.json to check for --android-package and --fingerprint, with its hosting \
            rules, fetched as `appflip assetlinks check` fetches it (--ca-file and --port apply; 10 seconds at most).
            """
    )
    var assetlinksDomain: String?

    @Option(
        name: .customLong("fingerprint"),
        help: "The partner app's signing certificate SHA-256 fingerprint, upper-case hex pairs with colons (repeatable)."
    )
    var fingerprints: [String] = []

    @Option(
        help:
            "The partner's Android package: its App Flip activity through appflipd (with --android-action), its assetlinks.json (with --assetlinks-file or --assetlinks-domain)."
    )
    var androidPackage: String?

    @Option(help: "The App Flip intent action the partner entered in the console (with --android-package).")
    var androidAction: String?

    @Option(help: "With --android-package: the REDIRECT_URI Google sends, e.g. https://oauth-redirect.googleusercontent.com/r/PROJECT_ID.")
    var redirectURI: String?

    @Option(help: "With --android-package: the Google app's package the partner allows.")
    var callerPackage = "com.google.android.googlequicksearchbox"

    @Option(help: "With --android-package: a SHA-256 fingerprint the partner allows for --caller-package (AA:BB:…); repeat for several.")
    var callerFingerprint: [String] = []

    @OptionGroup var appArtifacts: AppArtifactOptions

    @Option(help: "The daemon's socket (default: $APPFLIP_SOCKET, else appflipd's default socket).")
    var socket: String?

    @Flag(help: "Print each check's evidence.")
    var verbose = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: "Also write the report as JUnit XML to this file.")
    var junit: String?

    @Option(
        help: """
            Also write every HTTP exchange of the run as an HTTP Archive (HAR 1.2) to this file, redacted, each \
            entry naming the checks that refer to it (_appflipFindings).
            """
    )
    var har: String?

    @Option(help: "Also write the report as GitHub-flavoured Markdown to this file, under 1 MiB ($GITHUB_STEP_SUMMARY, a merge-request note).")
    var summaryMarkdown: String?

    @Option(help: "Also write the report as JSON (the --json document) to this file.")
    var jsonFile: String?

    @Option(
        help: """
            How many independent requests to the authorization endpoint (the 12 redirect URIs, the lookalikes, \
            the states) and of the token endpoint's checks may be in flight at once, 1 to 16 (default 4). Flip \
            links go one at a time.
            """
    )
    var concurrency: Int = Auditor.defaultConcurrency

    @Option(help: "Seconds to wait for appflipd's reply to each flip link.")
    var flipTimeout: Double = 30

    @Option(
        help: """
            Seconds the whole audit may take (default 60, or 700 with --slow): past it the audit stops, keeps the \
            checks it finished and exits 1. Each HTTP request is bounded as well: 10 s, 64 KiB of body.
            """
    )
    var timeout: Double?

    /// The whole run's bound: `--timeout`, else 60 s, enough for a full audit of a partner on a CI runner, or
    /// 700 s with --slow, whose code-expiry check waits 601 s.
    var runTimeout: Double { timeout ?? (slow ? 700 : 60) }

    func validate() throws {
        if link == nil && authorizeURL == nil && !tokenEndpointOptions.isGiven && aasaFile == nil && aasaDomain == nil && assetLinksSource == nil
            && androidAction == nil && !appArtifacts.isGiven
        {
            throw ValidationError(
                "nothing to audit: give --link, --authorize-url, --token-url (or --oauth-config), --aasa-file, --aasa-domain, --assetlinks-file, --assetlinks-domain, --android-package with --android-action, or --app"
            )
        }
        try validateAndroid()
        if let link, (try? RawURL(link))?.normalizedScheme != "https" { throw ValidationError("--link must be an absolute https URL") }
        if partnerTargetGiven || authorizeURL != nil || tokenEndpointOptions.isGiven || androidTargetGiven, clientID?.isEmpty != false {
            throw ValidationError("--client-id is required with --link, --authorize-url, --token-url, --oauth-config and --android-action")
        }
        if (partnerTargetGiven || authorizeURL != nil || androidTargetGiven) && scopes.isEmpty {
            throw ValidationError("--scope is required: the Google app always sends the scopes of the Actions project; give each with --scope")
        }
        _ = try credential()
        if aasaFile != nil && aasaDomain != nil { throw ValidationError("give one of --aasa-file and --aasa-domain") }
        if (aasaFile == nil && aasaDomain == nil) != (appID == nil) && !(appArtifacts.isGiven && aasaFile != nil && appID == nil) {
            throw ValidationError("--app-id goes with --aasa-file or --aasa-domain, and they need it")
        }
        if (aasaFile != nil || aasaDomain != nil) && link == nil {
            throw ValidationError("--aasa-file and --aasa-domain need --link: the flip link the file must route")
        }
        if aasaFetch.cdnBase != nil && aasaDomain == nil && !appArtifacts.isGiven { throw ValidationError("--cdn-base needs --aasa-domain or --app") }
        if (aasaFetch.port != nil || aasaFetch.caFile != nil) && aasaDomain == nil && assetlinksDomain == nil && !appArtifacts.isGiven {
            throw ValidationError("--port and --ca-file need --aasa-domain, --assetlinks-domain or --app")
        }
        try validateAssetLinks()
        _ = try hostedAssociationSource()
        guard ClientAuthMethod(rawValue: clientAuth) != nil else { throw ValidationError("--client-auth must be post or basic") }
        if (clientAuth != "post" || resourceURL != nil || revokeURL != nil || slow) && !tokenEndpointOptions.isGiven {
            throw ValidationError("--client-auth, --resource-url, --revoke-url and --slow need the token endpoint (--token-url or --oauth-config)")
        }
        try families.validate(clientID: clientID, tokenEndpoint: tokenEndpointOptions.isGiven, authorizationEndpoint: authorizeURL != nil)
        guard (1...16).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 16") }
        guard flipTimeout > 0, flipTimeout <= 3600 else { throw ValidationError("--flip-timeout must be more than 0 and at most 3600") }
        guard runTimeout > 0, runTimeout <= 86400 else { throw ValidationError("--timeout must be more than 0 and at most 86400") }
        if slow && runTimeout <= 601 { throw ValidationError("--slow waits 601 seconds for a code to expire: give a --timeout above that") }
    }

    func run() async throws {
        let clientID = self.clientID ?? ""
        let scopes = self.scopes
        let partnerLink = try link.map { try RawURL($0) }
        var auditor = Auditor(timeout: .milliseconds(Int64(runTimeout * 1000)))
        auditor.concurrency = concurrency
        if let partnerLink, partnerTargetGiven {
            let socketPath = try DaemonConnectionOptions.socketPath(socket)
            auditor.partner = (
                PartnerAppTarget(link: partnerLink, clientID: clientID, scopes: scopes, timeout: .milliseconds(Int64(flipTimeout * 1000))), socketPath
            )
        }
        if let authorizeURL {
            let credential = try credential()
            auditor.authorization = AuthorizationEndpointTarget(url: authorizeURL, clientID: clientID, scopes: scopes, credential: credential)
            auditor.authorization?.signOut = try families.signOut(credential: credential)
        }
        if tokenEndpointOptions.isGiven {
            let endpoint = try tokenEndpointOptions.endpoint(clientID: clientID)
            auditor.token = TokenEndpointTarget(
                url: endpoint.url,
                clientID: clientID,
                clientSecret: endpoint.clientSecret,
                clientAuth: ClientAuthMethod(rawValue: clientAuth) ?? .post,
                resourceURL: resourceURL,
                revokeURL: revokeURL,
                codeExpiry: slow
            )
            try families.apply(to: &auditor.token!)
        }
        if let androidPackage, let androidAction, let redirectURI {
            auditor.android = (
                AndroidAppTarget(
                    package: androidPackage,
                    action: androidAction,
                    clientID: clientID,
                    scopes: scopes,
                    redirectURI: redirectURI,
                    caller: AndroidCaller(package: callerPackage, fingerprints: callerFingerprint),
                    timeout: .milliseconds(Int64(flipTimeout * 1000))
                ), try DaemonConnectionOptions.socketPath(socket)
            )
        }
        if let appID, let partnerLink, let source = try aasaFile.map({ .file(path: $0) }) ?? hostedAssociationSource() {
            auditor.association = AssociationTarget(source: source, appID: appID, link: partnerLink)
        }
        if let source = assetLinksSource, let androidPackage, !fingerprints.isEmpty {
            auditor.assetLinks = AssetLinksTarget(source: source, package: androidPackage, fingerprints: fingerprints)
        }

        auditor.app = appArtifacts.target(
            link: partnerLink,
            androidAction: androidAction,
            fingerprints: fingerprints,
            assetLinksFile: assetlinksFile,
            aasaFile: aasaFile,
            fetch: aasaFetch
        )

        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
        let startedAt = Date()
        let report = await auditor.run(httpClient: httpClient)
        try? await httpClient.shutdown()

        try write(junit, "the JUnit report") { Array(AuditJUnit.document(report).utf8) }
        try write(har, "the HAR file") { try HTTPArchive.document(report, startedAt: startedAt) }
        try write(summaryMarkdown, "the Markdown summary") { Array(AuditSummaryMarkdown.document(report).utf8) }
        try write(jsonFile, "the JSON report") { Array(try JSONEncoder.protocolEncoder.encode(report)) + [UInt8(ascii: "\n")] }
        if json {
            try OutputJSON.print(report)
        } else {
            AuditOutput(style: .standard, verbose: verbose).print(report)
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }

    /// Writes the file an output option names, if it names one; a file that cannot be written is exit 1.
    private func write(_ path: String?, _ what: String, _ contents: () throws -> [UInt8]) throws {
        guard let path else { return }
        do {
            try Data(try contents()).write(to: URL(filePath: path))
        } catch {
            printError("cannot write \(what) to \(path): \(error)")
            throw ExitCode(1)
        }
    }

    /// The Android statement list's source: --assetlinks-file, or --assetlinks-domain fetched as `appflip
    /// assetlinks check` fetches it.
    private var assetLinksSource: AssociationSource? {
        if let assetlinksFile { return .file(path: assetlinksFile) }
        guard let assetlinksDomain else { return nil }
        let fetch = HostedFetchOptions(source: .direct(port: aasaFetch.port), trust: aasaFetch.caFile.map(HostedFileTrust.caFile) ?? .system)
        return .hosted(host: assetlinksDomain.lowercased(), fetch: fetch)
    }

    private func validateAssetLinks() throws {
        if assetlinksFile != nil && assetlinksDomain != nil { throw ValidationError("give one of --assetlinks-file and --assetlinks-domain") }
        if let assetlinksDomain { _ = try AssetLinksHostedOptions.host(assetlinksDomain) }
        guard assetLinksSource != nil else {
            if !fingerprints.isEmpty && !appArtifacts.isGiven {
                throw ValidationError("--fingerprint goes with --assetlinks-file, --assetlinks-domain or --app")
            }
            if androidPackage != nil && androidAction == nil {
                throw ValidationError("--android-package goes with --android-action, --assetlinks-file or --assetlinks-domain")
            }
            return
        }
        guard let androidPackage, !fingerprints.isEmpty else {
            // With --app, the artifact gives the package and its keys for its own hosts.
            if appArtifacts.isGiven { return }
            throw ValidationError("--assetlinks-file and --assetlinks-domain need --android-package and --fingerprint")
        }
        if let problem = AndroidIdentity(package: androidPackage, fingerprints: fingerprints).problem() {
            throw ValidationError("--android-package/--fingerprint: \(problem.message)")
        }
    }

    /// The hosted file's source for --aasa-domain, fetched as `appflip aasa check` fetches it.
    private func hostedAssociationSource() throws -> AssociationSource? {
        guard let aasaDomain else { return nil }
        let entry = try AASAFetchSourceOptions.associatedDomain(aasaDomain)
        return .hosted(host: entry.host, fetch: try aasaFetch.fetchOptions(for: entry, timeout: .seconds(10)))
    }

    /// The sign-in credential for --authorize-url: at most one of --cookie, --header and --bearer, each from the
    /// command line, its -file option or (with --authorize-url, when none is given) its environment variable.
    private func credential() throws -> SessionCredential? {
        let candidates: [(source: SecretOption, value: String?, file: String?, make: (String) throws -> SessionCredential)] = [
            (.cookie, cookie, cookieFile, { .cookie($0) }),
            (.header, header, headerFile, Self.header),
            (.bearer, bearer, bearerFile, { .bearer($0) }),
        ]
        var given: [(credential: SessionCredential, origin: SecretOption.Origin)] = []
        for candidate in candidates {
            if let (secret, origin) = try candidate.source.resolve(value: candidate.value, file: candidate.file) {
                given.append((try candidate.make(secret), origin))
            }
        }
        let explicit = given.filter { $0.origin == .explicit }
        guard explicit.isEmpty || authorizeURL != nil else { throw ValidationError("--cookie, --header and --bearer need --authorize-url") }
        // The environment counts only for an authorization endpoint, and only when the command line gives nothing.
        let chosen = explicit.isEmpty && authorizeURL != nil ? given : explicit
        guard chosen.count <= 1 else {
            throw ValidationError(
                "give at most one of --cookie, --header and --bearer (with their -file options and $APPFLIP_COOKIE, $APPFLIP_HEADER, $APPFLIP_BEARER)"
            )
        }
        return chosen.first?.credential
    }

    /// `Name: value` as a header credential.
    private static func header(_ line: String) throws -> SessionCredential {
        guard let colon = line.firstIndex(of: ":") else { throw ValidationError("--header must be 'Name: value'") }
        return .header(name: String(line[..<colon]), value: String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
}

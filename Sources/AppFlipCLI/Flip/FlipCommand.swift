import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import ArgumentParser
import AsyncHTTPClient
import Logging

/// `appflip flip`: one App Flip account link, played as the Google app through appflipd.
struct FlipCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flip",
        abstract: "Link an account with App Flip, as the Google app and Google's server would, and check every rule.",
        discussion: """
            Registers as the Google app for its redirect links, opens the partner's flip link, checks the result \
            URL (state byte for byte, exactly one of code or error, an allowed error), then exchanges the code at \
            the token endpoint with the identical redirect_uri and refreshes once. With --unlink it then revokes \
            the tokens as Google does when the user unlinks, and checks that they are dead.
            With --android it plays the Google app on Android instead: it registers the caller's Android identity \
            (--caller-package, --caller-fingerprint), starts --android-package's --android-action activity for a \
            result with CLIENT_ID, SCOPE (a String[]) and REDIRECT_URI (--redirect-uri), checks the result \
            contract and exchanges the code with that REDIRECT_URI.
            The client secret stays out of ps with --client-secret-file or $APPFLIP_CLIENT_SECRET.
            Exit status: 0 linked (or a valid code with --no-exchange), 1 the flow stopped (declined, an App Flip \
            error, a daemon error, a timeout, a token endpoint error), 2 a rule was broken (the result URL or the \
            token response), 3 appflipd unreachable, 64 usage error.
            """
    )

    @Option(help: "The partner's universal link, without the App Flip parameters, e.g. https://partner.appflip.test/link/flip.")
    var link: String?

    @Flag(help: "Flip on Android: start the partner's App Flip activity with an explicit intent instead of opening a link.")
    var android = false

    @Option(help: "With --android: the partner's package, e.g. dev.appflip.demopartner.")
    var androidPackage: String?

    @Option(help: "With --android: the App Flip intent action the partner entered in the console.")
    var androidAction: String?

    @Option(
        help:
            "With --android: the REDIRECT_URI to send and to exchange the code with, e.g. https://oauth-redirect.googleusercontent.com/r/PROJECT_ID."
    )
    var redirectURI: String?

    @Option(help: "With --android: the package to act as, as the daemon's claim policy allows.")
    var callerPackage = AndroidFlipCaller.googleApp

    @Option(help: "With --android: a SHA-256 signing-certificate fingerprint of the caller (AA:BB:…); repeat for several. At least one.")
    var callerFingerprint: [String] = []

    @Option(name: .customLong("client-id"), help: "The client_id to send.")
    var clientID: String

    @Option(
        name: .customLong("scope"),
        help: "A scope to ask for; repeat for several. At least one: the Google app always sends the project's scopes."
    )
    var scopes: [String] = []

    @Option(help: "The Google app receiving the result: com.google.OPA or com.google.Chromecast, with an optional .dev or .enterprise.")
    var redirectBundle = "com.google.OPA"

    @Flag(help: "Use the sandbox redirect host, oauth-redirect-sandbox.googleusercontent.com.")
    var sandbox = false

    @Option(help: "The state to send (default: 32 fresh random bytes in standard base64, whose + / = test the partner's encoding).")
    var state: String?

    @OptionGroup var tokenEndpointOptions: TokenEndpointOptions

    @Flag(help: "Stop once the result is checked; do not exchange the code.")
    var noExchange = false

    @Flag(
        help:
            "After linking, unlink as Google does: revoke at the partner's revocation endpoint, then check that the refresh token gets invalid_grant and the access tokens no longer open --resource-url."
    )
    var unlink = false

    @Option(
        help:
            "The partner's RFC 7009 revocation endpoint for --unlink (default: revocation_endpoint from the RFC 8414 metadata at the token URL's origin)."
    )
    var revokeURL: String?

    @Option(help: "A protected resource the access tokens must no longer open after --unlink, e.g. the embedded server's /userinfo.")
    var resourceURL: String?

    @Flag(help: "Print the five steps as a timeline with the time each took.")
    var trace = false

    @Option(help: "Seconds to wait for appflipd's reply.")
    var timeout: Double = 30

    @OptionGroup var daemon: DaemonConnectionOptions

    func validate() throws {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be more than 0 and at most 3600") }
        if scopes.isEmpty {
            throw ValidationError(
                "--scope is required: the Google app always sends the scopes of the Actions project, and a link without one is refused with invalid_request; give each with --scope"
            )
        }
        if unlink && noExchange { throw ValidationError("--unlink needs tokens: it cannot be combined with --no-exchange") }
        if !unlink && (revokeURL != nil || resourceURL != nil) { throw ValidationError("--revoke-url and --resource-url apply only with --unlink") }
        if android {
            try AndroidFlipCaller.validate(self)
            return
        }
        if androidPackage != nil || androidAction != nil || redirectURI != nil || !callerFingerprint.isEmpty {
            throw ValidationError("--android-package, --android-action, --redirect-uri and --caller-fingerprint apply only with --android")
        }
        guard let link else { throw ValidationError("--link is required (or --android with --android-package and --android-action)") }
        guard appFlipRedirectURI != nil else {
            throw ValidationError("--redirect-bundle must be com.google.OPA or com.google.Chromecast, optionally with .dev or .enterprise")
        }
        guard (try? RawURL(link))?.normalizedScheme == "https" else { throw ValidationError("--link must be an absolute https URL") }
        if state?.isEmpty == true { throw ValidationError("--state must not be empty") }
    }

    private var appFlipRedirectURI: AppFlipRedirectURI? {
        AppFlipRedirectURI.all.first { $0.bundleID == redirectBundle && $0.environment == (sandbox ? .sandbox : .production) }
    }

    func run() async throws {
        let tokenEndpoint = noExchange ? nil : try tokenEndpointOptions.endpoint(clientID: clientID)
        if android {
            let report = try await AndroidFlipCaller.run(self, tokenEndpoint: tokenEndpoint)
            if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
            return
        }
        let runner = FlipRunner(
            partnerLink: try RawURL(link!),
            clientID: clientID,
            scopes: scopes,
            state: state ?? FlipState.fresh(),
            redirectURI: appFlipRedirectURI!,
            tokenEndpoint: tokenEndpoint,
            timeout: .milliseconds(Int64(timeout * 1000)),
            unlink: unlink ? FlipRunner.Unlink(revocationURL: revokeURL, resourceURL: resourceURL) : nil
        )

        let connection = try await daemon.connect()
        let google: GoogleApp
        do {
            google = try await GoogleApp.register(on: connection, bundleID: redirectBundle)
        } catch {
            await connection.close()
            printError("cannot register as the Google app \(GoogleApp.appID(bundleID: redirectBundle)): \(error)")
            throw DaemonExitCode.refused
        }
        var events: FlipEventLog?
        let watcher = trace ? try? await AppFlipConnection.connect(to: daemon.socketPath, client: "appflip-flip-trace") : nil
        if let watcher, let stream = try? await watcher.watch() { events = FlipEventLog(stream) }

        let httpClient = tokenEndpoint.map { _ in HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth()) }
        let report = await runner.run(
            connection: connection,
            google: google,
            events: events,
            httpClient: httpClient,
            logger: Logger(label: "appflip", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try? await httpClient?.shutdown()
        events?.stop()
        await watcher?.close()
        await connection.close()

        if daemon.json {
            try OutputJSON.print(report)
        } else {
            FlipOutput(style: .standard, trace: trace).print(report)
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}

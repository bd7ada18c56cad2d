import AppFlipClient
import AppFlipCore
import AppFlipOAuth
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
            the token endpoint with the identical redirect_uri and refreshes once.
            Exit status: 0 linked (or a valid code with --no-exchange), 1 the flow stopped (declined, an App Flip \
            error, a daemon error, a timeout, a token endpoint error), 2 a rule was broken (the result URL or the \
            token response), 3 appflipd unreachable, 64 usage error.
            """
    )

    @Option(help: "The partner's universal link, without the App Flip parameters, e.g. https://partner.appflip.test/link/flip.")
    var link: String

    @Option(name: .customLong("client-id"), help: "The client_id to send.")
    var clientID: String

    @Option(name: .customLong("scope"), help: "A scope to ask for; repeat for several.")
    var scopes: [String] = []

    @Option(help: "The Google app receiving the result: com.google.OPA or com.google.Chromecast, with an optional .dev or .enterprise.")
    var redirectBundle = "com.google.OPA"

    @Flag(help: "Use the sandbox redirect host, oauth-redirect-sandbox.googleusercontent.com.")
    var sandbox = false

    @Option(help: "The state to send (default: 32 fresh random bytes, base64url).")
    var state: String?

    @Option(help: "The embedded OAuth server's configuration, for its token URL and the client's secret (default: \(FlipTokenEndpoint.defaultOAuthConfiguration)).")
    var oauthConfig: String?

    @Option(help: "The token endpoint, overriding the OAuth configuration's.")
    var tokenURL: String?

    @Option(help: "The client secret, overriding the OAuth configuration's.")
    var clientSecret: String?

    @Flag(help: "Stop once the result is checked; do not exchange the code.")
    var noExchange = false

    @Flag(help: "Print the five steps as a timeline with the time each took.")
    var trace = false

    @Option(help: "Seconds to wait for appflipd's reply.")
    var timeout: Double = 30

    @OptionGroup var daemon: DaemonConnectionOptions

    func validate() throws {
        guard redirectURI != nil else {
            throw ValidationError("--redirect-bundle must be com.google.OPA or com.google.Chromecast, optionally with .dev or .enterprise")
        }
        guard (try? RawURL(link))?.scheme.lowercased() == "https" else { throw ValidationError("--link must be an absolute https URL") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be more than 0 and at most 3600") }
        if state?.isEmpty == true { throw ValidationError("--state must not be empty") }
    }

    private var redirectURI: AppFlipRedirectURI? {
        AppFlipRedirectURI.all.first { $0.bundleID == redirectBundle && $0.environment == (sandbox ? .sandbox : .production) }
    }

    func run() async throws {
        let tokenEndpoint = try noExchange
            ? nil : FlipTokenEndpoint.resolve(tokenURL: tokenURL, clientSecret: clientSecret, oauthConfiguration: oauthConfig, clientID: clientID)
        let runner = FlipRunner(
            partnerLink: try RawURL(link), clientID: clientID, scopes: scopes, state: state ?? Self.freshState(),
            redirectURI: redirectURI!, tokenEndpoint: tokenEndpoint, timeout: .milliseconds(Int64(timeout * 1000)))

        let connection = try await daemon.connect()
        let google: FlipGoogleApp
        do {
            google = try await FlipGoogleApp.register(on: connection, bundleID: redirectBundle)
        } catch {
            await connection.close()
            printError("cannot register as the Google app \(FlipGoogleApp.appID(bundleID: redirectBundle)): \(error)")
            throw DaemonExitCode.refused
        }
        var events: FlipEventLog?
        let watcher = trace ? try? await AppFlipConnection.connect(to: daemon.socketPath, client: "appflip-flip-trace") : nil
        if let watcher, let stream = try? await watcher.watch() { events = FlipEventLog(stream) }

        let httpClient = tokenEndpoint.map { _ in HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth()) }
        let report = await runner.run(
            connection: connection, google: google, events: events, httpClient: httpClient,
            logger: Logger(label: "appflip", factory: { _ in SwiftLogNoOpLogHandler() }))
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

    /// 32 random bytes from the system generator, base64url without padding.
    static func freshState() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// The text output of `appflip flip`.
struct FlipOutput {
    var style: OutputStyle
    var trace: Bool

    func print(_ report: FlipReport) {
        if trace {
            Swift.print(style.bold("App Flip") + style.dim(" \(report.link)"))
            for step in report.steps {
                let mark: String
                switch step.status {
                case .ok: mark = style.green("✔")
                case .failed: mark = style.red("✘")
                case .skipped: mark = style.dim("·")
                }
                let time = step.milliseconds.map { String(format3($0)) + " ms" } ?? "—"
                let line = "\(mark) \(step.step) \(step.name.padding(30))" + style.dim(time.leftPadding(11))
                Swift.print(line + (step.detail.map { "  " + ($0) } ?? ""))
            }
        }
        for violation in report.violations { Swift.print(style.red("violation: ") + violation) }
        for deviation in report.deviations { Swift.print(style.yellow("deviation: ") + deviation) }
        if let failure = report.failure {
            Swift.print(style.red("✘ ") + failure)
        } else if report.tokens != nil {
            Swift.print(style.green("✔ linked") + " \(report.app ?? "?"): code exchanged, tokens: \(report.tokens!.summary)")
            if let refreshed = report.refreshed { Swift.print(style.dim("  refreshed: \(refreshed.summary)")) }
        } else {
            Swift.print(style.green("✔ code received") + " from \(report.app ?? "?") with the state echoed (not exchanged)")
        }
    }

    private func format3(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    fileprivate func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

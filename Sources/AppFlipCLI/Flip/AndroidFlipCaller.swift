import AppFlipClient
import AppFlipCore
import AppFlipGoogle
import AppFlipHTTPClient
import ArgumentParser
import AsyncHTTPClient
import Logging

/// `appflip flip --android`: the Google app on Android, through appflipd.
enum AndroidFlipCaller {
    /// The Google app's package (App Flip for Android); Google Home is `com.google.android.apps.chromecast.app`.
    static let googleApp = "com.google.android.googlequicksearchbox"

    static func validate(_ command: FlipCommand) throws {
        if command.link != nil || command.state != nil || command.sandbox || command.redirectBundle != "com.google.OPA" {
            throw ValidationError("--link, --state, --sandbox and --redirect-bundle are for links; --android sends an intent")
        }
        guard let package = command.androidPackage, AndroidPackageName.isValid(package) else {
            throw ValidationError("--android needs --android-package, a package name such as dev.appflip.demopartner")
        }
        guard let action = command.androidAction, !action.isEmpty, action.utf8.count <= IntentLimits.maxActionBytes else {
            throw ValidationError("--android needs --android-action, the App Flip action the partner entered in the console")
        }
        guard let redirectURI = command.redirectURI, (try? RawURL(redirectURI))?.normalizedScheme == "https" else {
            throw ValidationError("--android needs --redirect-uri, an absolute https URL: the REDIRECT_URI Google sends and exchanges the code with")
        }
        if let problem = AndroidPackageName.problem(with: command.callerPackage) { throw ValidationError("--caller-package \(problem)") }
        guard !command.callerFingerprint.isEmpty else {
            throw ValidationError(
                "--android needs --caller-fingerprint: Google publishes no fingerprint of its apps' signing certificates, so give the one the partner allows"
            )
        }
        for fingerprint in command.callerFingerprint where CertificateFingerprint.problem(fingerprint) != nil {
            throw ValidationError("--caller-fingerprint \(fingerprint) is not 32 upper-case hex pairs separated by colons")
        }
    }

    /// Registers, flips, prints the report, and returns it.
    static func run(_ command: FlipCommand, tokenEndpoint: TokenEndpoint?) async throws -> FlipReport {
        let runner = AndroidFlipRunner(
            package: command.androidPackage!,
            action: command.androidAction!,
            clientID: command.clientID,
            scopes: command.scopes,
            redirectURI: command.redirectURI!,
            tokenEndpoint: tokenEndpoint,
            timeout: .milliseconds(Int64(command.timeout * 1000)),
            unlink: command.unlink ? FlipRunner.Unlink(revocationURL: command.revokeURL, resourceURL: command.resourceURL) : nil
        )
        let caller = AndroidCaller(package: command.callerPackage, fingerprints: command.callerFingerprint)
        let connection = try await command.daemon.connect()
        do {
            try await AndroidFlipRunner.register(as: caller, on: connection)
        } catch {
            await connection.close()
            printError("cannot register as \(caller.package): \(error)")
            throw DaemonExitCode.refused
        }
        let httpClient = tokenEndpoint.map { _ in HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth()) }
        let report = await runner.run(
            connection: connection,
            httpClient: httpClient,
            logger: Logger(label: "appflip", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try? await httpClient?.shutdown()
        await connection.close()
        if command.daemon.json {
            try OutputJSON.print(report)
        } else {
            FlipOutput(style: .standard, trace: command.trace).print(report)
        }
        return report
    }
}

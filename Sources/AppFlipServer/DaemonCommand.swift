import AppFlipConfiguration
import AppFlipDaemon
import AppFlipOAuth
import AppFlipProtocol
public import ArgumentParser
import Glibc
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Systemd
import UnixSignals

/// `appflipd`: the command line of the daemon.
public struct DaemonCommand: AsyncParsableCommand {
    /// The command name, abstract and discussion `appflipd --help` shows, and the release `--version` prints.
    public static let configuration = CommandConfiguration(
        commandName: "appflipd",
        abstract: "Route universal links to registered apps over a Unix socket (protocol v1).",
        discussion: """
            SIGTERM and SIGINT stop it gracefully; SIGHUP reloads the configuration, the apps directory and the artifacts and statement lists the app files name.
            Exit status: 0 after a graceful stop, 1 when the configuration is invalid or the socket is taken.
            """,
        version: ReleaseVersion.current
    )

    static let defaultConfigurationFile = "/etc/appflipd/appflipd.json"

    @Option(help: "The daemon configuration file (default: \(defaultConfigurationFile), or built-in defaults when it does not exist).")
    var config: String?

    @Option(help: "The socket path, overriding the configuration.")
    var socket: String?

    @Option(
        help:
            "The embedded OAuth2 server's configuration (default: oauth.json next to the daemon configuration, when it exists; without one, no OAuth server runs)."
    )
    var oauthConfig: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Flag(help: "Validate the configuration, the apps directory and the artifacts the app files name, then exit.")
    var check = false

    /// Creates the command with every option at its default; ArgumentParser fills them in from the command line.
    public init() {}

    /// Loads the configuration, then either checks it (`--check`) or runs the ``DaemonComposition`` with
    /// systemd integration until SIGTERM or SIGINT.
    public func run() async throws {
        SystemdIntegration.bootstrapLogging(level: logLevel)
        let logger = Logger(label: "appflipd")
        // The first line of every run, so that the journal says which release each start was.
        logger.info("appflipd \(ReleaseVersion.current) starting", metadata: ["version": "\(ReleaseVersion.current)"])
        let file = config ?? (access(Self.defaultConfigurationFile, F_OK) == 0 ? Self.defaultConfigurationFile : nil)
        do {
            var configuration = try file.map { path throws(ConfigurationError) in try DaemonConfiguration.load(from: path) } ?? DaemonConfiguration()
            if let socket { configuration.socket = socket }
            let oauthFile = oauthConfig ?? file.map(Self.siblingOAuthFile).flatMap { access($0, F_OK) == 0 ? $0 : nil }
            let oauth = try oauthFile.map { path throws(ConfigurationError) in try OAuthServerConfiguration.load(from: path) }
            let systemd = try SystemdIntegration()
            let listener = try systemd.listener(path: configuration.socket)
            // Its own group rather than NIO's singleton (a thread per CPU), sized by `eventLoops`.
            let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: configuration.eventLoopsInEffect)
            let composition = try DaemonComposition(
                configuration: configuration,
                configurationFile: file,
                oauth: oauth,
                listener: listener,
                eventLoopGroup: eventLoopGroup,
                logger: logger,
                onReady: systemd.ready
            )
            if check {
                // The artifacts too: at run time an app whose artifact fails is refused alone, here it fails the check.
                let refused = await composition.daemon.checkArtifacts()
                await composition.discard()
                try await eventLoopGroup.shutdownGracefully()
                for app in refused {
                    logger.critical("app file refused: \(ConfigurationError(file: app.source, field: app.field, app.message))")
                }
                guard refused.isEmpty else { throw ExitCode(1) }
                print("configuration is valid: \(file ?? "built-in defaults")" + (oauthFile.map { ", OAuth server: \($0)" } ?? ""))
                return
            }
            let systemdServices = systemd.services(daemon: composition.daemon, eventLoopGroup: eventLoopGroup, logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    // Stopped in reverse: STOPPING=1 first, then the daemon drains, then the OAuth server and the HTTP
                    // client stop, and the watchdog pings until the end.
                    services: systemdServices.beforeDaemon + composition.services + systemdServices.afterDaemon,
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await group.run()
            try await eventLoopGroup.shutdownGracefully()
        } catch let error as ConfigurationError {
            logger.critical("invalid configuration: \(error)")
            throw ExitCode(1)
        } catch let error as SocketPathError {
            logger.critical("\(error)")
            throw ExitCode(1)
        } catch let error as SocketActivationError {
            logger.critical("\(error)")
            throw ExitCode(1)
        } catch let error as SystemdError {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
    }
}

extension DaemonCommand {
    /// `oauth.json` beside the daemon configuration: used when it exists and `--oauth-config` is not given.
    static func siblingOAuthFile(of daemonConfigurationFile: String) -> String {
        guard let slash = daemonConfigurationFile.lastIndex(of: "/") else { return "oauth.json" }
        return String(daemonConfigurationFile[...slash]) + "oauth.json"
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

import AppFlipDaemon
import ArgumentParser
import Logging
import NIOPosix
import ServiceLifecycle
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// `appflipd`: the command line of the daemon.
public struct DaemonCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "appflipd",
        abstract: "Route universal links to registered apps over a Unix socket (protocol v1).",
        discussion: """
            SIGTERM and SIGINT stop it gracefully; SIGHUP reloads the configuration and the apps directory.
            Exit status: 0 after a graceful stop, 1 when the configuration is invalid or the socket is taken.
            """
    )

    static let defaultConfigurationFile = "/etc/appflipd/appflipd.json"

    @Option(help: "The daemon configuration file (default: \(defaultConfigurationFile), or built-in defaults when it does not exist).")
    var config: String?

    @Option(help: "The socket path, overriding the configuration.")
    var socket: String?

    @Option(help: "The embedded OAuth2 server's configuration (default: oauth.json next to the daemon configuration, when it exists; without one, no OAuth server runs).")
    var oauthConfig: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Flag(help: "Validate the configuration and the apps directory, then exit.")
    var check = false

    public init() {}

    public func run() async throws {
        SystemdIntegration.bootstrapLogging(level: logLevel)
        let logger = Logger(label: "appflipd")
        let file = config ?? (access(Self.defaultConfigurationFile, F_OK) == 0 ? Self.defaultConfigurationFile : nil)
        do {
            var configuration = try file.map { path throws(ConfigurationError) in try DaemonConfiguration.load(from: path) } ?? DaemonConfiguration()
            if let socket { configuration.socket = socket }
            let systemd = try SystemdIntegration()
            let listener = try systemd.listener(path: configuration.socket)
            let eventLoopGroup = MultiThreadedEventLoopGroup.singleton
            let appFlip = try EmbeddedOAuthComposition(oauthConfigurationFile: oauthConfig, daemonConfigurationFile: file, logger: logger)
            let daemon: DaemonService
            do {
                daemon = try DaemonService(
                    configuration: configuration, configurationFile: file, listener: listener, handlerFactories: appFlip.handlerFactories,
                    eventLoopGroup: eventLoopGroup, logger: logger, onReady: systemd.ready)
            } catch {
                await appFlip.shutdown()
                throw error
            }
            if check {
                print("configuration is valid: \(file ?? "built-in defaults")" + (appFlip.oauthConfigurationFile.map { ", OAuth server: \($0)" } ?? ""))
                await appFlip.shutdown()
                return
            }
            let systemdServices = systemd.services(daemon: daemon, eventLoopGroup: eventLoopGroup, logger: logger)
            let group = ServiceGroup(
                configuration: .init(
                    // Shut down in reverse: STOPPING=1 first, then the daemon drains, then the OAuth server, and
                    // the watchdog pings until the end.
                    services: systemdServices.beforeDaemon + appFlip.services + [.init(service: daemon)] + systemdServices.afterDaemon,
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            do {
                try await group.run()
            } catch {
                await appFlip.shutdown()
                throw error
            }
            await appFlip.shutdown()
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

extension Logger.Level: @retroactive ExpressibleByArgument {}

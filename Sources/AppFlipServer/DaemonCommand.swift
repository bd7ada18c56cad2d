import AppFlipDaemon
import ArgumentParser
import Logging
import ServiceLifecycle
import UnixSignals

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
        var logger = Logger(label: "appflipd")
        logger.logLevel = logLevel
        let file = config ?? (access(Self.defaultConfigurationFile, F_OK) == 0 ? Self.defaultConfigurationFile : nil)
        do {
            var configuration = try file.map { path throws(ConfigurationError) in try DaemonConfiguration.load(from: path) } ?? DaemonConfiguration()
            if let socket { configuration.socket = socket }
            let path = try configuration.socket ?? SocketPath.defaultPath()
            configuration.socket = path
            let appFlip = try EmbeddedOAuthComposition(oauthConfigurationFile: oauthConfig, daemonConfigurationFile: file, logger: logger)
            let daemon: DaemonService
            do {
                daemon = try DaemonService(
                    configuration: configuration, configurationFile: file, listener: .path(path), handlerFactories: appFlip.handlerFactories,
                    logger: logger)
            } catch {
                await appFlip.shutdown()
                throw error
            }
            if check {
                print("configuration is valid: \(file ?? "built-in defaults")" + (appFlip.oauthConfigurationFile.map { ", OAuth server: \($0)" } ?? ""))
                await appFlip.shutdown()
                return
            }
            let group = ServiceGroup(
                configuration: .init(
                    services: appFlip.services + [
                        .init(service: daemon), .init(service: HangupReloadService(daemon: daemon, logger: logger), successTerminationBehavior: .ignore),
                    ],
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
        }
    }
}

/// Reloads the daemon on SIGHUP, keeping the old configuration when the new one is invalid.
public struct HangupReloadService: Service {
    let daemon: DaemonService
    let logger: Logger

    public init(daemon: DaemonService, logger: Logger) {
        self.daemon = daemon
        self.logger = logger
    }

    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try daemon.reload()
            } catch {
                logger.error("reload refused; the previous configuration stays: \(error)")
            }
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

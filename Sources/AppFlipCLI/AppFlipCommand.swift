import AppFlipProtocol
public import ArgumentParser

/// The `appflip` command: it plays the Google app against a running appflipd, and evaluates AASA files offline.
public struct AppFlipCommand: AsyncParsableCommand {
    /// The command name, the one-line abstract `--help` shows, the release `--version` prints, and the subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "appflip",
        abstract: "Drive App Flip account linking through appflipd, and check universal-link rules.",
        version: ReleaseVersion.current,
        subcommands: [
            AASACommand.self,
            AssetLinksCommand.self,
            OpenCommand.self,
            ExplainCommand.self,
            AppsCommand.self,
            WatchCommand.self,
            FlipCommand.self,
            AuditCommand.self,
            AppCommand.self,
        ]
    )

    /// Creates the command with every option at its default; ArgumentParser fills them in from the command line.
    public init() {}
}

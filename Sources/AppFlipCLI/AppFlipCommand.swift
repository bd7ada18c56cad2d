public import ArgumentParser

/// The `appflip` command: it plays the Google app against a running appflipd, and evaluates AASA files offline.
public struct AppFlipCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "appflip",
        abstract: "Drive App Flip account linking through appflipd, and check universal-link rules.",
        subcommands: [
            AASACommand.self,
            OpenCommand.self,
            ExplainCommand.self,
            AppsCommand.self,
            WatchCommand.self,
            BenchCommand.self,
            FlipCommand.self,
        ]
    )

    public init() {}
}

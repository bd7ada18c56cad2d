import ArgumentParser

/// `appflip aasa …`: evaluate apple-app-site-association files offline, like `swcutil`.
struct AASACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Validate apple-app-site-association files and decide URLs against them, offline.",
        subcommands: [
            AASAValidateCommand.self,
            AASAMatchCommand.self,
        ]
    )
}

import ArgumentParser

/// `appflip aasa …`: evaluate apple-app-site-association files offline, like `swcutil`.
struct AASACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Validate apple-app-site-association files, decide URLs against them, and fetch and check hosted ones.",
        subcommands: [
            AASAValidateCommand.self,
            AASAMatchCommand.self,
            AASAFetchCommand.self,
            AASACheckCommand.self,
        ]
    )
}

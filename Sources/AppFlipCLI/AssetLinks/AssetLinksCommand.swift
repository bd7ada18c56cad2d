import ArgumentParser

/// `appflip assetlinks …`: fetch and check a host's Digital Asset Links statement list as Android's verifiers would.
struct AssetLinksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Fetch and check a host's /.well-known/assetlinks.json as Android's two App Links verifiers would.",
        subcommands: [
            AssetLinksFetchCommand.self,
            AssetLinksCheckCommand.self,
        ]
    )
}

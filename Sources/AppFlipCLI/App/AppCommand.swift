import ArgumentParser

/// `appflip app …`: the partner's own app, read from the artifacts it ships.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Read a partner app's build artifacts: what they declare for App Flip and links.",
        subcommands: [AppInspectCommand.self]
    )
}

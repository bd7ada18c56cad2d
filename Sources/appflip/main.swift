import AppFlipCLI
import ArgumentParser

// Inside an async function, because top-level code resolves `main()` to ParsableCommand's synchronous one,
// which refuses to run an async command.
func start() async {
    await AppFlipCommand.main()
}

await start()

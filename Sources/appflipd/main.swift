import AppFlipServer
import ArgumentParser

// Inside an async function, because top-level code resolves `main()` to ParsableCommand's synchronous one.
func start() async {
    await DaemonCommand.main(nil)
}

await start()

import AppFlipBench

// Inside an async function, because top-level code resolves `main()` to ParsableCommand's synchronous one,
// which refuses to run an async command.
func start() async {
    await runBenchCommand()
}

await start()

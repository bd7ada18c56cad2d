import AppFlipCLI

// Top-level code resolves `await AppFlipCommand.main()` to the synchronous `ParsableCommand.main()`, which
// refuses an async root command at run time; inside an async function the async overload wins.
func runAppFlip() async {
    await AppFlipCommand.main()
}

await runAppFlip()

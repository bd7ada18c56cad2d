import AppFlipCLI

await AppFlipCommand.main()

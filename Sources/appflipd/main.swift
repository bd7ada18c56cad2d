import AppFlipServer
import ArgumentParser
import Dispatch

/// Runs the command while the main thread waits. Top-level `await` would make this an async main, whose
/// main thread ends in dispatch_main's pthread_exit: a forced unwind that maps a megabyte of the binary's
/// unwind tables into every idle daemon (docs/performance.md, "Footprint").
func runWhileMainThreadWaits() {
    let finished = DispatchSemaphore(value: 0)
    Task.detached {
        await DaemonCommand.main(nil)
        finished.signal()
    }
    finished.wait()
}

runWhileMainThreadWaits()

import Glibc

/// How many test cases run at once. Swift Testing 6.3 starts every test case of the bundle together unless
/// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH` caps them, and SwiftPM has no option for it. On two cores,
/// hundreds of tests standing up servers, daemons and TLS handshakes at once starve each other's event loops
/// past their deadlines. So the test bundle caps them at twice the cores (the default swift-testing first
/// shipped with the cap) unless the variable is set, and plain `swift test --parallel` needs no variable. This
/// runs as the bundle loads, before the testing library reads its configuration.
@used @section(".init_array")
let capParallelizationWidth: @convention(c) () -> Void = {
    let variable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"
    guard getenv(variable) == nil else { return }
    setenv(variable, String(2 * max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))), 0)
}

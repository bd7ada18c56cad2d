import Glibc
public import Testing

/// Which tests run: the slow ones only when `APPFLIP_SLOW_TESTS` is set to a true value (`1`, `true`, `yes`,
/// `y`, `on`), as SwiftNIO gates its slow tests on `SWIFTNIO_RUN_SLOW_TESTS`. Plain `swift test --parallel` is
/// the developer's fast loop; `scripts/test --full` sets the variable and runs everything. docs/testing.md
/// lists the slow suites and why each is slow.
public enum SlowTests {
    /// True when `APPFLIP_SLOW_TESTS` is set to a true value.
    public static let enabled = isTrue(getenv("APPFLIP_SLOW_TESTS").map { String(cString: $0) })

    /// Whether `value`, the variable's, means yes.
    static func isTrue(_ value: String?) -> Bool {
        ["1", "true", "yes", "y", "on"].contains(value?.lowercased() ?? "")
    }

    /// Why a slow test was skipped, as the test run prints it.
    public static let comment: Comment = "a slow test: APPFLIP_SLOW_TESTS=1 runs it (docs/testing.md, \"Slow tests\")"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only when ``SlowTests/enabled``.
    public static var slow: Self {
        .enabled(if: SlowTests.enabled, SlowTests.comment)
    }
}

import Glibc

/// Whether the slow tests run: `APPFLIP_SLOW_TESTS=1`, which `scripts/test --full` sets. As SwiftNIO keeps its
/// slow tests behind an environment variable, a test's deep version (thousands of random sequences, hundreds of
/// clients) is worth its minutes before a release, not on every edit; the quick version still covers every
/// path.
public enum SlowTests {
    /// True when `APPFLIP_SLOW_TESTS` is `1`.
    public static let enabled = getenv("APPFLIP_SLOW_TESTS").map { String(cString: $0) == "1" } ?? false

    /// `quick` normally, `deep` when the slow tests run.
    public static func scale(quick: Int, deep: Int) -> Int {
        enabled ? deep : quick
    }
}

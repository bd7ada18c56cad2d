import Glibc

/// How much slower than usual this test run is allowed to be: `APPFLIP_TEST_TIME_SCALE`, a whole number,
/// which `scripts/sanitize` sets, since a sanitizer build runs several times slower. A test whose outcome
/// is a bound (a deadline, a connect timeout) scales the bound, and the figures it expects, by it, so that
/// the bound it tests, not the sanitizer, is what the call runs into.
public enum TestTime {
    /// 1 unless `APPFLIP_TEST_TIME_SCALE` names a larger whole number.
    public static let scale: Int = getenv("APPFLIP_TEST_TIME_SCALE").flatMap { Int(String(cString: $0)) }.map { max(1, $0) } ?? 1

    /// `seconds` times the scale.
    public static func seconds(_ seconds: Int) -> Duration {
        .seconds(seconds * scale)
    }
}

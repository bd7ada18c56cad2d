import Glibc
import Testing

@testable import AppFlipTestSupport

/// Which tests run, and how many at once.
@Suite struct SlowTestsTests {
    @Test(arguments: ["1", "true", "TRUE", "yes", "y", "on"])
    func aTrueValueRunsTheSlowTests(value: String) {
        #expect(SlowTests.isTrue(value))
    }

    @Test(arguments: [nil, "", "0", "false", "no", "off", "2"] as [String?])
    func anyOtherValueSkipsThem(value: String?) {
        #expect(!SlowTests.isTrue(value))
    }

    @Test func theTestBundleCapsHowManyTestsRunAtOnce() throws {
        let width = try #require(getenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH").map { String(cString: $0) })
        #expect(Int(width).map { $0 > 0 } == true, "\(width)")
    }

    @Test func waitingNamesWhatNeverCame() async throws {
        let error = await #expect(throws: WaitTimeout.self) {
            try await waitUntil("the moon", within: .milliseconds(50)) { false }
        }
        #expect(error?.description.hasPrefix("the moon: not within") == true)
    }
}

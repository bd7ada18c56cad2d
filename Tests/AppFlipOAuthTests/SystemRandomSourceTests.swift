import AppFlipHTTPClient
import AppFlipOAuth
import Testing

/// The system generator fills exactly the bytes asked for, with one call, and never repeats itself.
@Suite struct SystemRandomSourceTests {
    @Test(arguments: [0, 1, 16, 32, 4096])
    func givesExactlyTheBytesAskedFor(count: Int) {
        #expect(SystemRandomSource().bytes(count).count == count)
    }

    @Test func twoDrawsDiffer() {
        let source = SystemRandomSource()
        #expect(source.bytes(32) != source.bytes(32))
    }

    /// A buffer left partly unfilled (zeros) or filled with one repeated value fails this; 16,384 random bytes
    /// miss one of the 256 values with probability about 256 × (255/256)^16384, below 10^-25.
    @Test func aLargeDrawUsesEveryByteValue() {
        #expect(Set(SystemRandomSource().bytes(16_384)).count == 256)
    }
}

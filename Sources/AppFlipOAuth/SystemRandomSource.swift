import AppFlipCore

/// `SystemRandomNumberGenerator`: `getrandom(2)` on Linux, `arc4random_buf` on Darwin.
public struct SystemRandomSource: RandomSource {
    /// Creates the source; it has no state.
    public init() {}

    /// `count` bytes from the system's cryptographically secure generator.
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in generator.next() }
    }
}

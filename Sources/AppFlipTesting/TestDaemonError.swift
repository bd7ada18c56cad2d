/// A test daemon cannot do what the test asked of it.
public struct TestDaemonError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public var description: String
}

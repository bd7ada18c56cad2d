/// A test daemon cannot do what the test asked of it.
public struct TestDaemonError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Text that is not JSON, and where it stops being JSON.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    /// The UTF-8 offset of the problem.
    public let offset: Int
    public let line: Int
    public let column: Int

    public var description: String { "\(reason) (line \(line), column \(column), byte \(offset))" }
}

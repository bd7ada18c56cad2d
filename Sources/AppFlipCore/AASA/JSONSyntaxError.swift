/// Text that is not JSON, and where it stops being JSON.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the parser expected or found, in words.
    public let reason: String
    /// The UTF-8 offset of the problem.
    public let offset: Int
    /// The 1-based line of the problem, for editors.
    public let line: Int
    /// The 1-based column of the problem, counted in Unicode scalars from the line start.
    public let column: Int

    /// The reason, then line, column and byte offset.
    public var description: String { "\(reason) (line \(line), column \(column), byte \(offset))" }
}

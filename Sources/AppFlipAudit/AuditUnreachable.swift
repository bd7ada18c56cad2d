/// Something the audit needed could not be reached (a socket, a host, a port): the audit could not run
/// fully, exit status 1, and the description says what and how to fix it.
public struct AuditUnreachable: Error, Sendable, CustomStringConvertible {
    /// What was unreachable and why, in one sentence.
    public var description: String

    /// Records what was unreachable.
    public init(_ description: String) {
        self.description = description
    }
}

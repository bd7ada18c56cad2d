import Glibc

/// A libsystemd call failed; `errno` is the negated return value, as sd-daemon(3) reports errors.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The libsystemd function that failed, e.g. `sd_notify`.
    public let function: String
    /// The errno it reported.
    public let errno: Int32

    init(function: String, result: Int32) {
        self.function = function
        self.errno = -result
    }

    /// The function and `strerror(errno)`.
    public var description: String {
        "\(function) failed: \(String(cString: strerror(errno)))"
    }
}

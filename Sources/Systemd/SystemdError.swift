import Glibc

/// A libsystemd call failed; `errno` is the negated return value, as sd-daemon(3) reports errors.
public struct SystemdError: Error, Sendable, Hashable, CustomStringConvertible {
    public let function: String
    public let errno: Int32

    init(function: String, result: Int32) {
        self.function = function
        self.errno = -result
    }

    public var description: String {
        "\(function) failed: \(String(cString: strerror(errno)))"
    }
}

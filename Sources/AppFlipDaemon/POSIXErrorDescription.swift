import AppFlipConfiguration
import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Glibc

/// An `errno` as a readable error.
struct POSIXErrorDescription: Error, CustomStringConvertible {
    var errno: Int32
    var description: String { String(cString: strerror(errno)) }
}

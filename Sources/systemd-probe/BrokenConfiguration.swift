import Dispatch
import Logging
import Systemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

struct BrokenConfiguration: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

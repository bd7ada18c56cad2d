import Dispatch
import Glibc
import Logging
import Systemd

struct BrokenConfiguration: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}

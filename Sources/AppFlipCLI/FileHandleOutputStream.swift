import AppFlipClient
import AppFlipProtocol
import ArgumentParser
import Glibc

/// stderr as a `TextOutputStream`.
struct FileHandleOutputStream: TextOutputStream {
    let descriptor: Int32
    static var standardError: FileHandleOutputStream { FileHandleOutputStream(descriptor: STDERR_FILENO) }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

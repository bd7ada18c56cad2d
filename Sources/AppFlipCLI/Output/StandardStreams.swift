import Glibc

/// Unbuffered writes for the `aasa` and `assetlinks` commands, so that a program driving `aasa match --stdin`
/// line by line gets each answer as soon as it is decided, a fetched file goes to stdout as it was served, and
/// diagnostics go to stderr, never into the answers.
enum StandardStreams {
    static func writeLine(_ line: String) {
        write(line + "\n", to: 1)
    }

    static func writeError(_ line: String) {
        write(line + "\n", to: 2)
    }

    /// Bytes as they are, for a fetched file written to stdout unchanged.
    static func writeOutput(_ bytes: [UInt8]) {
        write(bytes, to: 1)
    }

    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8), to: descriptor)
    }

    private static func write(_ output: [UInt8], to descriptor: Int32) {
        var bytes = output[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return  // the reader went away; nothing useful left to do with the output
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

extension [UInt8] {
    /// Appends the string's UTF-8 bytes with one copy. `append(contentsOf: string.utf8)` goes through the
    /// generic sequence path, and the log line did it a dozen times per entry (docs/operations.md, "What the
    /// handoff line costs").
    mutating func appendUTF8(_ string: String) {
        if let copied: Void = string.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) {
            return copied
        }
        append(contentsOf: string.utf8)
    }

    /// Appends the number's decimal digits, without a string in between.
    mutating func appendDecimal(_ number: UInt) {
        withDecimalDigits(of: UInt64(number)) { append(contentsOf: $0) }
    }
}

/// Calls `body` with the number's decimal digits, spelled out on the stack.
func withDecimalDigits<Result>(of number: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: more than UInt64.max's 20 digits
    return withUnsafeMutableBytes(of: &digits) { buffer in
        var value = number
        var index = buffer.count
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0
        return body(UnsafeRawBufferPointer(rebasing: buffer[index...]))
    }
}

import AppFlipCore

extension [UInt8] {
    /// Appends the string's UTF-8 bytes with one copy. `append(contentsOf: string.utf8)` goes through the
    /// generic sequence path, and the log line did it a dozen times per entry (docs/performance.md, "The
    /// handoff line").
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

    /// Appends the number's decimal digits, `-` first when it is negative.
    mutating func appendDecimal(_ number: Int) {
        withDecimalDigits(of: Int64(number)) { append(contentsOf: $0) }
    }
}

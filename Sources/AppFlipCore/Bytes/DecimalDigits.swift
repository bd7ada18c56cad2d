/// Calls `body` with `value`'s decimal digits, written right to left into a buffer on the stack, so that a
/// writer copies them in one go. `String(value)` is generic and not specialized: digits by hand cost a
/// fraction as much, and the protocol writer and the log writer spell numbers in every message and record.
/// Inlinable, so that each caller's closure is specialized into it across modules.
@inlinable
package func withDecimalDigits<Result>(of value: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try withDecimalDigits(magnitude: value, negative: false, body)
}

/// The same for a signed value: `-` before a negative one's digits.
@inlinable
package func withDecimalDigits<Result>(of value: Int64, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try withDecimalDigits(magnitude: value.magnitude, negative: value < 0, body)
}

@inlinable
func withDecimalDigits<Result>(
    magnitude: UInt64,
    negative: Bool,
    _ body: (UnsafeRawBufferPointer) throws -> Result
) rethrows -> Result {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: a sign and UInt64.max's 20 digits fit
    return try withUnsafeMutableBytes(of: &digits) { buffer in
        var remaining = magnitude
        var start = buffer.count
        repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
        if negative {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        return try body(UnsafeRawBufferPointer(rebasing: buffer[start...]))
    }
}

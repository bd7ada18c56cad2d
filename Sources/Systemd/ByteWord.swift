/// Eight bytes of text as one number, so that a scan skips what holds no byte it stops at eight bytes at a
/// time. Hand-written for the log writer's scans, which ran over every byte of every handoff record.
struct ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    let bits: UInt64

    init(bits: UInt64) {
        self.bits = bits
    }

    /// The eight bytes at `index` of `bytes`; `index + 8` must not pass their end.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) {
        precondition(index >= 0 && index + 8 <= bytes.count)
        bits = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
    }

    /// Whether a byte is below `limit`, at most 0x80. Exact: a borrow only runs on from a byte below it.
    func hasByte(below limit: UInt8) -> Bool {
        (bits &- Self.ones &* UInt64(limit)) & ~bits & Self.highBits != 0
    }

    /// Whether a byte is `byte`.
    func hasByte(_ byte: UInt8) -> Bool {
        ByteWord(bits: bits ^ (Self.ones &* UInt64(byte))).hasByte(below: 1)
    }

    /// 0x80 in exactly the bytes that are `byte` (no carry crosses a byte, as none can overflow), so that
    /// the first one's place is ``firstMarked(_:)``.
    func marks(_ byte: UInt8) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let word = bits ^ (Self.ones &* UInt64(byte))
        return ~(((word & low7) &+ low7) | word | low7)
    }

    /// The word with `0x20` set in every byte: ASCII letters in lower case (and a few control bytes moved
    /// onto punctuation, which a scan then looks at for nothing).
    var foldingCase: ByteWord { ByteWord(bits: bits | (Self.ones &* 0x20)) }

    /// The place (0–7) of the first byte that `marks` marks; `marks` must not be zero.
    static func firstMarked(_ marks: UInt64) -> Int { marks.trailingZeroBitCount / 8 }
}

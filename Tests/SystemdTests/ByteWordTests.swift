import Testing

@testable import Systemd

/// The eight-bytes-at-a-time tests answer what a byte-by-byte look answers, whatever the other bytes are.
@Suite struct ByteWordTests {
    @Test(arguments: [0x00, 0x41, 0x7F, 0x80, 0xFF] as [UInt8])
    func agreesWithTheBytes(filler: UInt8) {
        for value in UInt8.min...UInt8.max {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: filler, count: 8)
                bytes[position] = value
                let word = bytes.withUnsafeBufferPointer { ByteWord($0, at: 0) }
                for limit in [1, 0x0E, 0x20, 0x80] as [UInt8] {
                    #expect(word.hasByte(below: limit) == bytes.contains { $0 < limit }, "\(bytes) below \(limit)")
                }
                for byte in [0x00, 0x3A, 0x3D, 0x62, 0xC2, 0xE2] as [UInt8] {
                    #expect(word.hasByte(byte) == bytes.contains(byte), "\(bytes) holds \(byte)")
                    let marks = word.marks(byte)
                    let marked = (0..<8).filter { marks & 0x80 << UInt64($0 * 8) != 0 }
                    #expect(marked == bytes.indices.filter { bytes[$0] == byte }, "\(bytes) marks \(byte)")
                    #expect(marks & ~0x8080_8080_8080_8080 == 0)
                    if let first = marked.first { #expect(ByteWord.firstMarked(marks) == first) }
                }
            }
        }
    }
}

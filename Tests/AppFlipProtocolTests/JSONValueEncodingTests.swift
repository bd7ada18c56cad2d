import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Testing

/// `JSONValue` has one hand-written form (`compactJSON`, also inside the hot messages) and its `Codable`
/// form; with the one number rule and `JSONEncoder`'s escapes they are the same bytes.
@Suite struct JSONValueEncodingTests {
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 2.5, 0.1, 1e-7, .leastNonzeroMagnitude, 123_456_789, 1e15, -1e15, 9_007_199_254_740_991, 9_007_199_254_740_992,
        9_007_199_254_740_994, 1e16, 1.2345678901234568e17, 1795331748.1695855, .greatestFiniteMagnitude,
    ]

    @Test(arguments: numbers)
    func numbersAreWrittenAsJSONEncoderWritesThem(_ number: Double) throws {
        let value = JSONValue.array([.number(number)])
        #expect(value.compactJSON == String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self))
        #expect(value.compactJSON == String(decoding: try JSONEncoder.protocolEncoder.encode([number]), as: UTF8.self))
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func numbersThatAreNotFiniteAreNull(_ number: Double) throws {
        let value = JSONValue.array([.number(number)])
        #expect(value.compactJSON == "[null]")
        #expect(String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self) == "[null]")
    }

    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        let controls = String(String.UnicodeScalarView((UInt8(0)..<0x20).map(Unicode.Scalar.init)))
        let value = JSONValue.object([controls: .string(controls + "\"\\/é🙂\u{7F}\u{2028}"), "b": .null, "a": .bool(false)])
        #expect(value.compactJSON == String(decoding: try JSONEncoder.protocolEncoder.encode(value), as: UTF8.self))
    }

    @Test(arguments: [0, 1, -1, 9, 10, -10, 4242, Int64(Int32.max) + 1, 9_007_199_254_740_993, Int64.max, Int64.min] as [Int64])
    func integersAreTheirDecimalDigits(_ integer: Int64) {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        JSONText.appendInteger(integer, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + String(integer))
    }

    /// The eight-bytes-at-a-time scan agrees with the byte-by-byte rule for every byte value at every
    /// position of a word and of the tail, among fillers that match nothing or sit right beside what matches.
    @Test(arguments: [UInt8(ascii: "a"), 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF])
    func theWordScanStopsAtTheFirstByteAJSONStringCannotHoldAsItIs(filler: UInt8) {
        for asciiOnly in [false, true] {
            func isPlain(_ byte: UInt8) -> Bool {
                byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && (!asciiOnly || byte < 0x80)
            }
            for count in [1, 7, 8, 9, 16, 19] {
                for position in 0..<count {
                    for byte in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: filler, count: count)
                        bytes[position] = byte
                        let expected = bytes.firstIndex { !isPlain($0) } ?? count
                        let found = bytes.withUnsafeBytes { JSONText.plainCount($0, asciiOnly: asciiOnly) }
                        let escapes = bytes.withUnsafeBufferPointer { JSONText.needsEscape($0) }
                        guard found == expected, asciiOnly || escapes == (expected < count) else {
                            Issue.record("byte \(byte) at \(position) of \(count), asciiOnly \(asciiOnly): \(found), not \(expected)")
                            return
                        }
                    }
                }
            }
        }
    }
}

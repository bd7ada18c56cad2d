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
}

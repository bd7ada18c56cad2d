import Testing

@testable import AppFlipCore

/// The one digit writer, at both ends of both ranges.
@Suite struct DecimalDigitsTests {
    @Test(arguments: [0, 1, 9, 10, 1_000, UInt64(Int64.max), UInt64.max - 1, UInt64.max])
    func unsigned(value: UInt64) {
        #expect(withDecimalDigits(of: value) { String(decoding: $0, as: UTF8.self) } == String(value))
    }

    @Test(arguments: [0, 1, -1, 9, -10, Int64.max, Int64.max - 1, Int64.min + 1, Int64.min])
    func signed(value: Int64) {
        #expect(withDecimalDigits(of: value) { String(decoding: $0, as: UTF8.self) } == String(value))
    }

    @Test func theJSONWriterUsesThem() {
        var bytes: [UInt8] = []
        JSONText.appendInteger(Int64.min, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "-9223372036854775808")
    }
}

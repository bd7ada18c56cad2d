import FoundationEssentials
import Testing

@testable import AppFlipProtocol

/// A numeric `id` is its value, whatever its JSON spelling, at both ends of the signed 64-bit range and one
/// past them, and the fast path, the `JSONDecoder` path and the size check of a `register` line agree.
@Suite struct RequestIDTests {
    /// Spellings of the ends of the range and of values inside it, with the id each one is.
    static let accepted: [(spelling: String, id: Int64)] = [
        ("9223372036854775807", .max),
        ("9223372036854775807.0", .max),
        ("9.223372036854775807e18", .max),
        ("92233720368547758070E-1", .max),
        ("-9223372036854775808", .min),
        ("-9223372036854775808.0", .min),
        ("-9.223372036854775808e+18", .min),
        ("1e3", 1000),
        ("1000.000", 1000),
        // Above 2^53, where a `Double` on the way would round to 9007199254740992.
        ("9007199254740993.0", 9_007_199_254_740_993),
        ("-0", 0),
        ("0e400", 0),
    ]

    /// One past each end, fractions, and a value below the units however far the digits go.
    static let refused = [
        "9223372036854775808", "9223372036854775808.0", "9.223372036854775808e18", "1e19",
        "-9223372036854775809", "-9223372036854775809.0", "-9.223372036854775809e18",
        "2.5", "1e-400", "1.0000000000000000000000000000000000000001", "1e400",
    ]

    static func openLine(id: String) -> [UInt8] {
        Array(#"{"id":\#(id),"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/"}}"#.utf8)
    }

    @Test(arguments: accepted)
    func everySpellingOfAnIntegerInRangeIsThatID(spelling: String, id: Int64) throws {
        let line = Self.openLine(id: spelling)
        let fast = line.withUnsafeBytes { RequestFastPath.decode($0) }
        #expect(fast?.id == .number(id), "the fast path")
        #expect(try Request.decodeWithJSONDecoder(line: line).get().id == .number(id), "the JSONDecoder path")
        #expect(try Request.decode(line: line).get().id == .number(id))
        #expect(line.withUnsafeBytes { FastJSONScanner.envelope(of: $0) }?.id == .number(id), "the envelope scan")
    }

    @Test(arguments: refused)
    func anyOtherNumberIsAnInvalidID(spelling: String) {
        let line = Self.openLine(id: spelling)
        #expect(line.withUnsafeBytes { RequestFastPath.decode($0) } == nil, "the fast path steps aside")
        for (path, result) in [("decode", Request.decode(line: line)), ("JSONDecoder", Request.decodeWithJSONDecoder(line: line))] {
            guard case .failure(let failure) = result else {
                Issue.record("\(path) accepted id \(spelling): \(result)")
                continue
            }
            #expect(failure.id == nil, "\(path)")
            #expect(failure.error.code == .invalidRequest, "\(path)")
            #expect(failure.error.field == "id", "\(path)")
        }
    }

    /// `RequestID`'s own `Decodable`, used outside the daemon's line decoder, reads the same values.
    @Test(arguments: accepted)
    func theCodableIDReadsTheSameValue(spelling: String, id: Int64) throws {
        // `0e400` is beyond `Decimal`'s exponents: only the line decoders read it.
        guard spelling != "0e400" else { return }
        let decoded = try JSONDecoder().decode([RequestID].self, from: Data("[\(spelling)]".utf8))
        #expect(decoded == [.number(id)])
    }

    /// An oversized `register` line is refused by its size with its id, however the id is spelled.
    @Test func anOversizedRegistrationKeepsItsIDInAnySpelling() throws {
        let line = OversizedRegistrationTests.registerLine(id: "9223372036854775807.0", bytes: 300 << 10)
        guard case .failure(let failure) = Request.decode(line: line) else {
            Issue.record("a 300 KB registration was accepted")
            return
        }
        #expect(failure.error.message.contains("refused unread"))
        #expect(failure.id == .number(.max))
    }

    /// The first `id` counts, as in `JSONDecoder`.
    @Test func ofTwoIDsTheFirstCounts() throws {
        let line = Array(#"{"id":1e0,"op":"apps","id":2}"#.utf8)
        #expect(try Request.decode(line: line).get().id == .number(1))
        let big = OversizedRegistrationTests.registerLine(id: #"1,"id":2"#, bytes: 300 << 10)
        guard case .failure(let failure) = Request.decode(line: big) else {
            Issue.record("a 300 KB registration was accepted")
            return
        }
        #expect(failure.id == .number(1))
    }
}

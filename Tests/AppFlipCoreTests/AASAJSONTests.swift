import AppFlipCore
import Testing

@testable import AppFlipCore

/// The core's own JSON parser: strict RFC 8259, with positions in its errors.
@Suite struct AASAJSONTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONValue(parsing: Array(#" {"a":[1,-0.5,2e3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"],"b":{}} "#.utf8))
        #expect(
            value
                == .object([
                    "a": .array([
                        .number(1), .number(-0.5), .number(2000), .bool(true), .bool(false), .null,
                        .string("x\"\\/\u{8}\u{C}\n\r\té😀"),
                    ]),
                    "b": .object([:]),
                ])
        )
    }

    @Test func rendersCompactJSONWithSortedKeys() throws {
        let value = try JSONValue(parsing: Array(#"{"b":[1,2.5,"q\"\n"],"a":null}"#.utf8))
        #expect(value.compactJSON == #"{"a":null,"b":[1,2.5,"q\"\n"]}"#)
        #expect(try JSONValue(parsing: Array(value.compactJSON.utf8)) == value)
    }

    @Test(arguments: [
        ("", 1, 1), ("{", 1, 2), ("{\"a\" 1}", 1, 6), ("[1,]", 1, 4), ("[01]", 1, 3), ("\"a\nb\"", 1, 3),
        ("{\n  \"a\": tru\n}", 2, 8), ("[1] [2]", 1, 5), ("\"\\x\"", 1, 3), ("\"\\ud800\"", 1, 8), ("1.", 1, 3),
        ("-", 1, 2), ("1e999", 1, 1), ("{'a':1}", 1, 2), ("NaN", 1, 1),
    ])
    func refusesWhatIsNotJSONAndSaysWhere(text: String, line: Int, column: Int) {
        do {
            _ = try JSONValue(parsing: Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    }

    @Test func boundsNestingDepth() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(deep.utf8)) }
        let fine = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        _ = try JSONValue(parsing: Array(fine.utf8))
    }

    @Test func acceptsAByteOrderMark() throws {
        #expect(try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([:]))
    }

    @Test func lastDuplicateKeyWinsAndTheLoaderWarns() throws {
        let json = #"{"applinks":{"details":[{"appID":"A.b","components":[{"/":"/first","/":"/second"}]}]}}"#
        let file = try AssociationFile(json: Array(json.utf8))
        #expect(file.warnings.map(\.code) == [.duplicateKey])
        #expect(file.warnings.map(\.pointer) == ["/applinks/details/0/components/0/~1"])
        #expect(file.decide(appID: "A.b", url: try RawURL("https://e.com/second")).outcome == .match)
        #expect(file.decide(appID: "A.b", url: try RawURL("https://e.com/first")).outcome == .noMatch)
    }
}

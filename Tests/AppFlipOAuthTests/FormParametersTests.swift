import AppFlipCore
import Testing

@testable import AppFlipOAuth

@Suite struct FormParametersTests {
    @Test("decodes %XX and +, keeps order and repeats")
    func decoding() throws {
        let form = try FormParameters(parsing: "a=1+2&b=%26%3D%2B&a=3&empty=&bare&=v")
        #expect(form.pairs.map(\.name) == ["a", "b", "a", "empty", "bare", ""])
        #expect(form.single("a") == .repeated)
        #expect(form["a"] == nil)
        #expect(form["b"] == "&=+")
        #expect(form["empty"] == "")
        #expect(form["bare"] == "")
        #expect(form["missing"] == nil)
        #expect(form.repeatedNames == ["a"])
    }

    @Test("malformed escapes and invalid UTF-8 are refused, not passed through", arguments: ["%", "a=%2", "a=%zz", "a=%C3%28", "%G1=x"])
    func malformed(input: String) {
        #expect(throws: FormParameters.Malformed.self) { try FormParameters(parsing: input) }
    }

    @Test("encoding round-trips any string and only leaves unreserved characters raw")
    func roundTrip() throws {
        let values = ["https://oauth-redirect.googleusercontent.com/a/com.google.OPA", "a b+c&d=e#f", "ü🙂\u{0}\n", "~-._"]
        var form = FormParameters()
        for (index, value) in values.enumerated() { form.append("k\(index)", value) }
        let encoded = form.encoded
        #expect(encoded.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || "%=&".utf8.contains($0) })
        let decoded = try FormParameters(parsing: encoded)
        #expect(decoded.pairs.map(\.value) == values)
    }
}

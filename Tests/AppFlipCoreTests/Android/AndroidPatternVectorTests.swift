import AppFlipCore
import Testing

/// AOSP's PatternMatcher, DAL dynamic-component and IntentFilter host/scheme vectors
/// (`Corpora/android-patterns`, Apache-2.0): every line must agree.
@Suite struct AndroidPatternVectorTests {
    static let vectors = AndroidCorpus.lines("android-patterns/vectors.jsonl")

    static func kind(_ name: String) -> PatternMatcher.Kind {
        PatternMatcher.Kind.allCases.first { $0.name == name }!
    }

    @Test func everyMatchVectorAgrees() throws {
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "match" }
        #expect(lines.count == 290)
        var disagreements: [String] = []
        for line in lines {
            let pattern = line["pattern"]!.stringValue!
            let input = line["input"]!.stringValue!
            let matcher = try PatternMatcher(pattern, kind: Self.kind(line["type"]!.stringValue!))
            if matcher.matches(input) != line["match"]!.boolValue! {
                disagreements.append("\(matcher) on \(input)")
            }
        }
        #expect(disagreements == [])
    }

    @Test func everyRefusedPatternIsRefused() {
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "refused" }
        #expect(lines.count == 18)
        for line in lines {
            let pattern = line["pattern"]!.stringValue!
            #expect(throws: PatternMatcher.InvalidPattern.self, "\(pattern)") {
                try PatternMatcher(pattern, kind: Self.kind(line["type"]!.stringValue!))
            }
        }
    }

    @Test(arguments: [DynamicComponentExpression.ParserVersion.older, .newer])
    func everyDynamicComponentConversionAgrees(parser: DynamicComponentExpression.ParserVersion) {
        let name = parser == .older ? "older" : "newer"
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "dal_parse" && $0["parser"]?.stringValue == name }
        #expect(lines.count == (parser == .older ? 29 : 38))
        for line in lines {
            let expression = line["expression"]!.stringValue!
            if line["expected"]?.stringValue == "refused" {
                #expect(throws: DynamicComponentExpression.EmptyExpression.self) {
                    try DynamicComponentExpression.convert(expression, parser: parser)
                }
                continue
            }
            let converted = try? DynamicComponentExpression.convert(expression, parser: parser)
            #expect(converted?.kind.name == line["type"]!.stringValue!, "\(expression)")
            #expect(converted?.pattern == line["pattern"]!.stringValue!, "\(expression)")
        }
    }

    @Test func everyHostVectorAgrees() {
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "host" }
        #expect(lines.count == 18)
        for line in lines {
            let authority = IntentFilter.Authority(host: line["filter_host"]!.stringValue!, port: line["filter_port"]?.intValue)
            let port = line["input_port"]!.intValue!
            let matched = authority.matches(host: line["input_host"]!.stringValue!, port: port == -1 ? nil : port)
            #expect(matched == line["match"]!.boolValue!, "\(line["filter_host"]!) on \(line["input_uri"]!)")
            // The same through a whole filter and a parsed URL.
            let filter = IntentFilter(schemes: ["https"], authorities: [authority])
            #expect(filter.matchesData(AndroidURI(line["input_uri"]!.stringValue!)!) == line["match"]!.boolValue!)
        }
    }

    @Test func everySchemeVectorAgrees() {
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "scheme" }
        #expect(lines.count == 5)
        for line in lines {
            let filter = IntentFilter(schemes: [line["filter_scheme"]!.stringValue!], authorities: [.init(host: "example.com")])
            let uri = AndroidURI(scheme: line["input_scheme"]!.stringValue!, host: "example.com", path: "/")
            #expect(filter.matchesData(uri) == line["match"]!.boolValue!)
        }
    }

    @Test func everyVerificationHostVectorAgrees() {
        let lines = Self.vectors.filter { $0["kind"]?.stringValue == "verify_host" }
        #expect(lines.count == 3)
        for line in lines {
            #expect(StatementServiceVerifier.statementListURL(forManifestHost: line["filter_host"]!.stringValue!) == line["fetch_url"]!.stringValue!)
        }
    }

    @Test func theCorpusHasNoOtherKind() {
        let known: Set = ["match", "refused", "dal_parse", "host", "scheme", "verify_host"]
        #expect(Self.vectors.count == 401)
        #expect(Self.vectors.allSatisfy { known.contains($0["kind"]?.stringValue ?? "") })
    }
}

import AppFlipCore
import Testing

/// The loader on 223 files that real sites publish: the 213 valid ones load, the 10 that are not JSON are
/// refused with a diagnostic that points at the JSON error, and the recorded URL decisions agree.
@Suite struct AASARealCorpusTests {
    @Test func the213ValidFilesLoadAndThe10BrokenOnesPointAtTheirJSONError() {
        var loaded = 0
        var refused: [String] = []
        for file in RealCorpus.shared.files {
            do {
                _ = try AssociationFile(json: file.bytes)
                loaded += 1
            } catch {
                refused.append(file.name)
                #expect(error.errors.map(\.code) == [.invalidJSON], "\(file.name): \(error)")
                // "… (line 17, column 14, byte 590)": where to look.
                #expect(error.errors.first?.message.contains("(line ") == true, "\(file.name): \(error)")
                #expect(error.errors.first?.message.contains(", column ") == true, "\(file.name): \(error)")
            }
        }
        print("real AASA files: \(loaded) loaded, \(refused.count) refused (not JSON), of \(RealCorpus.shared.files.count)")
        #expect(RealCorpus.shared.files.count == 223)
        #expect(loaded == 213)
        #expect(refused.count == 10)
    }

    @Test func theRecordedURLDecisionsAgree() throws {
        let files = Dictionary(uniqueKeysWithValues: RealCorpus.shared.files.map { ($0.name, $0.bytes) })
        var agreed = 0
        for testCase in RealCorpus.shared.matchCases {
            let file = try AssociationFile(json: try #require(files[testCase.file]))
            let url = try RawURL(testCase.url)
            // An empty domain skips the host check, as in the conformance corpus's protocol.
            let onDomain = try testCase.domain.isEmpty || AssociatedDomain("applinks:" + testCase.domain).matches(url)
            let decision = onDomain ? file.decide(appID: testCase.appID, url: url).outcome.rawValue : "no_match"
            #expect(decision == testCase.expected, "\(testCase.file) \(testCase.url)")
            if decision == testCase.expected { agreed += 1 }
        }
        print("real AASA URL decisions: \(agreed)/\(RealCorpus.shared.matchCases.count)")
        #expect(agreed == RealCorpus.shared.matchCases.count && agreed == 66)
    }
}

import Testing

@testable import AppFlipCore

/// swcutil's tolerance: a part that iOS cannot read is skipped with a warning naming it, and every other entry
/// keeps working; only what iOS refuses refuses the whole file.
@Suite struct AASAToleranceTests {
    static let app = "ABCDE12345.com.example.app"

    static func load(_ json: String) throws -> AssociationFile {
        try AssociationFile(json: Array(json.utf8))
    }

    static func decide(_ file: AssociationFile, _ url: String, app: String = app) throws -> MatchOutcome {
        file.decide(appID: app, url: try RawURL(url)).outcome
    }

    @Test func anEntryWithoutAppIDIsSkippedAndTheNextEntryStillMatches() throws {
        // The shape of real files (repaired/mixed-noappid): an entry with no app before a working one.
        let file = try Self.load(
            #"{"applinks":{"details":[{"components":[{"/":"/search/"}]},{"appIDs":["\#(Self.app)"],"components":[{"/":"/buy/*"}]}]},"webcredentials":{"apps":["\#(Self.app)"]}}"#
        )
        #expect(file.warnings.map(\.code) == [.detailWithoutAppID])
        #expect(file.warnings.map(\.pointer) == ["/applinks/details/0"])
        #expect(file.warnings.allSatisfy { $0.severity == .warning })
        #expect(try Self.decide(file, "https://example.com/buy/1") == .match)
        #expect(try Self.decide(file, "https://example.com/search/") == .noMatch)
    }

    @Test func aComponentWhoseQueryIsAnArrayIsSkippedAndTheRestKeepsWorking() throws {
        let file = try Self.load(
            #"{"applinks":{"details":[{"appIDs":["\#(Self.app)"],"components":[{"/":"/a","?":["x=1"]},{"/":"/b/*"}]}]}}"#
        )
        #expect(file.warnings.map(\.code) == [.skippedComponent])
        #expect(file.warnings.map(\.pointer) == ["/applinks/details/0/components/0/?"])
        #expect(file.warnings.first?.message.contains("skips the component /applinks/details/0/components/0") == true)
        #expect(try Self.decide(file, "https://example.com/a?x=1") == .noMatch)
        #expect(try Self.decide(file, "https://example.com/b/2") == .match)
    }

    @Test(arguments: [
        // A path that is an array (the real carswaddle file), a fragment, exclude and the flags of the wrong type.
        (#"{"/":["/a"]}"#, "/~1"),
        (##"{"/":"/a","#":7}"##, "/#"),
        (#"{"/":"/a","exclude":"yes"}"#, "/exclude"),
        (#"{"/":"/a","caseSensitive":"no"}"#, "/caseSensitive"),
        (#"{"/":"/a","percentEncoded":1}"#, "/percentEncoded"),
        ("5", ""),
    ])
    func aComponentWithAValueOfTheWrongTypeIsSkipped(component: String, key: String) throws {
        let file = try Self.load(
            #"{"applinks":{"details":[{"appIDs":["\#(Self.app)"],"components":[\#(component),{"/":"/b/*"}]}]}}"#
        )
        #expect(file.warnings.map(\.code) == [.skippedComponent])
        #expect(file.warnings.map(\.pointer) == ["/applinks/details/0/components/0" + key])
        #expect(try Self.decide(file, "https://example.com/a") == .noMatch)
        #expect(try Self.decide(file, "https://example.com/b/1") == .match)
    }

    @Test(arguments: [
        (#"{"appIDs":"A.b","components":[{"/":"/*"}]}"#, "/appIDs"),
        (#"{"appIDs":["A.b",7],"components":[{"/":"/*"}]}"#, "/appIDs/1"),
        (#"{"appID":["A.b"],"components":[{"/":"/*"}]}"#, "/appID"),
        (#"{"appID":"A.b","components":{"/":"/a"}}"#, "/components"),
        (#"{"appID":"A.b","paths":["/a",7]}"#, "/paths/1"),
        ("[]", ""),
    ])
    func anEntryWithAValueOfTheWrongTypeIsSkipped(entry: String, key: String) throws {
        let file = try Self.load(
            #"{"applinks":{"details":[\#(entry),{"appIDs":["\#(Self.app)","A.b"],"components":[{"/":"/b/*"}]}]}}"#
        )
        #expect(file.warnings.map(\.code) == [.skippedDetail])
        #expect(file.warnings.map(\.pointer) == ["/applinks/details/0" + key])
        #expect(try Self.decide(file, "https://example.com/b/1", app: "A.b") == .match)
        #expect(try Self.decide(file, "https://example.com/a", app: "A.b") == .noMatch)
    }

    @Test func defaultsOfTheWrongTypeAreSkippedNotTheFile() throws {
        let file = try Self.load(
            #"{"applinks":{"defaults":{"caseSensitive":"no"},"details":[{"appIDs":["\#(Self.app)"],"components":[{"/":"/b"}]}]}}"#
        )
        #expect(file.warnings.map(\.code) == [.skippedComponent])
        #expect(file.warnings.map(\.pointer) == ["/applinks/defaults/caseSensitive"])
        // The skipped defaults do not make matching case-insensitive.
        #expect(try Self.decide(file, "https://example.com/B") == .noMatch)
        #expect(try Self.decide(file, "https://example.com/b") == .match)
    }

    @Test(arguments: [
        #"{"applinks":[]}"#,
        #"{"applinks":{"details":"A.b"}}"#,
        #"{"applinks":{"substitutionVariables":{"v":"x"},"details":[]}}"#,
    ])
    func theDocumentsOwnStructureStillRefusesTheFile(json: String) {
        #expect(throws: AASALoadError.self) { try Self.load(json) }
    }
}

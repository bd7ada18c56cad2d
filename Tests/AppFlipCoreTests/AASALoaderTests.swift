import Testing

@testable import AppFlipCore

/// Loading: every problem reported with its pointer, an invalid document refused whole.
@Suite struct AASALoaderTests {
    static func diagnostics(_ json: String) -> [AASADiagnostic] {
        AssociationFile.validate(json: Array(json.utf8))
    }

    @Test func pointsAtTheExactValue() {
        let found = Self.diagnostics(
            """
            {"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/a"},{"/":"/b"},{"/":"/c","?":{"x":"1","f":true}}]}]}}
            """
        )
        #expect(found.map(\.pointer) == ["/applinks/details/0/components/2/?/f"])
        #expect(found.map(\.code) == [.nonStringQueryPredicate])
        #expect(found.first?.severity == .warning)
    }

    @Test func escapesPointerTokensAsRFC6901Says() {
        // The path key `/` is `~1`; a dictionary-form key with `/` and `~` is escaped the same way.
        let found = Self.diagnostics(
            """
            {"applinks":{"details":{"T.a/b~c":{"paths":[7]}}}}
            """
        )
        #expect(found.map(\.pointer) == ["/applinks/details/T.a~1b~0c/paths/0"])
        #expect(found.map(\.code) == [.skippedDetail])
        let path = Self.diagnostics(#"{"applinks":{"details":[{"appID":"A.b","components":[{"/":5}]}]}}"#)
        #expect(path.map(\.pointer) == ["/applinks/details/0/components/0/~1"])
    }

    @Test func reportsEveryErrorNotJustTheFirst() {
        let found = Self.diagnostics(
            """
            {"applinks":{"details":[{"appID":"A.b","components":[{"/":"/$(x"}]},{"appIDs":[""],"components":[{"#":"$(nope)"}]}]}}
            """
        )
        #expect(Set(found.map(\.code)) == [.unterminatedSubstitution, .emptyAppID, .undefinedVariable])
        #expect(found.first { $0.code == .undefinedVariable }?.pointer == "/applinks/details/1/components/0/#")
    }

    @Test func refusesAnInvalidDocumentWhole() {
        // The first entry is fine; the second has an error. Nothing may be loaded.
        let json = #"{"applinks":{"details":[{"appID":"A.good","components":[{"/":"/*"}]},{"appIDs":[""],"components":[{"/":"/x"}]}]}}"#
        #expect(throws: AASALoadError.self) { try AssociationFile(json: Array(json.utf8)) }
        do {
            _ = try AssociationFile(json: Array(json.utf8))
        } catch {
            #expect(error.errors.map(\.code) == [.emptyAppID])
            #expect(error.errors.map(\.pointer) == ["/applinks/details/1/appIDs/0"])
        }
    }

    @Test(arguments: [
        ("", AASADiagnostic.Code.invalidJSON),
        ("{\"applinks\":", .invalidJSON),
        ("[1,2]", .rootNotObject),
        ("\"applinks\"", .rootNotObject),
        (#"{"applinks":[]}"#, .wrongType),
        (#"{"applinks":{"details":"A.b"}}"#, .wrongType),
        (#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/$(x"}]}]}}"#, .unterminatedSubstitution),
        (#"{"applinks":{"substitutionVariables":{"a(b":["x"]},"details":[]}}"#, .invalidVariableName),
        (#"{"applinks":{"substitutionVariables":{"v":"x"},"details":[]}}"#, .wrongType),
    ])
    func refusesMalformedDocuments(json: String, code: AASADiagnostic.Code) {
        let found = Self.diagnostics(json)
        #expect(found.contains { $0.code == code && $0.severity == .error }, "\(found)")
        #expect(throws: AASALoadError.self) { try AssociationFile(json: Array(json.utf8)) }
    }

    @Test func refusesFilesAboveApplesLimit() {
        let padding = String(repeating: " ", count: AssociationFileLoader.maximumSize)
        let json = #"{"applinks":{"details":[]}}"# + padding
        #expect(Self.diagnostics(json).map(\.code) == [.documentTooLarge])
    }

    @Test func keepsWarningsOnTheLoadedFile() throws {
        let file = try AssociationFile(json: Array(#"{"applinks":{"apps":["A.b"],"details":[{"appID":"A.b","components":[{"/":"/*"}]}]}}"#.utf8))
        #expect(file.warnings.map(\.code) == [.legacyAppsNotEmpty])
        #expect(file.appIDs == ["A.b"])
    }

    @Test func warnsAboutEmptyAndShadowingVariables() {
        let found = Self.diagnostics(
            #"{"applinks":{"substitutionVariables":{"none":[],"digit":["x"]},"details":[{"appID":"A.b","components":[{"/":"/$(digit)"}]}]}}"#
        )
        #expect(Set(found.map(\.code)) == [.emptyVariable, .shadowedPredefinedVariable])
        #expect(found.allSatisfy { $0.severity == .warning })
    }

    @Test func aTrailingCatchAllIsDeliberateAndSilent() {
        let found = Self.diagnostics(#"{"applinks":{"details":[{"appID":"A.b","components":[{"/":"/private/*","exclude":true},{"/":"*"}]}]}}"#)
        #expect(found.isEmpty)
        let legacy = Self.diagnostics(#"{"applinks":{"details":[{"appID":"A.b","paths":["*","/never"]}]}}"#)
        #expect(legacy.map(\.code) == [.catchAllShadowsRules, .unreachableRule])
        #expect(legacy.map(\.pointer) == ["/applinks/details/0/paths/0", "/applinks/details/0/paths/1"])
    }

    @Test func aDefaultsProblemIsReportedOnceWhereItIsWritten() {
        let found = Self.diagnostics(##"{"applinks":{"defaults":{"#":"$(nope)"},"details":[{"appID":"A.b","components":[{"/":"/a"},{"/":"/b"}]}]}}"##)
        #expect(found.map(\.pointer) == ["/applinks/defaults/#"])
        #expect(found.map(\.code) == [.undefinedVariable])
    }
}

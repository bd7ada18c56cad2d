import AppFlipCore
import AppFlipTestSupport
import Foundation
import Testing

/// `appflip aasa validate` and `appflip aasa match`, run as the built executable: output and exit status.
@Suite struct AASACommandLineTests {
    static let example = #"""
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[
          {"#":"no_universal_links","exclude":true},{"/":"/buy/*"},{"/":"/help/website/*","exclude":true}]}]}}
        """#

    /// Writes `contents` to a fresh file and passes its path to `body`.
    static func withFile<T>(_ contents: String, _ body: (String) async throws -> T) async throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString).json")
        try Data(contents.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url.path)
    }

    @Test func validateExitsZeroForACleanFile() async throws {
        let run = try await Self.withFile(Self.example) { try await TestCommand.run("appflip", ["aasa", "validate", $0]) }
        #expect(run.status == 0)
        #expect(run.standardOutput.contains("no problems found"))
    }

    @Test func validateExitsOneAndPointsAtEachError() async throws {
        let json = #"{"applinks":{"apps":["x"],"details":[{"components":[]},{"appID":"A.b","components":[{"/":"/$(x"}]}]}}"#
        let run = try await Self.withFile(json) { try await TestCommand.run("appflip", ["aasa", "validate", "--json", $0]) }
        #expect(run.status == 1)
        let report = try JSONValue(parsing: Array(run.standardOutput.utf8))
        guard case .object(let members) = report, case .array(let diagnostics)? = members["diagnostics"] else {
            Issue.record("not a report: \(run.standardOutput)")
            return
        }
        #expect(members["valid"] == .bool(false))
        let found = diagnostics.compactMap { diagnostic -> String? in
            guard case .object(let fields) = diagnostic, case .string(let code)? = fields["code"],
                case .string(let pointer)? = fields["pointer"], case .string(let severity)? = fields["severity"]
            else { return nil }
            return "\(code) \(severity) \(pointer)"
        }
        #expect(
            found.sorted() == [
                "AASA110 warning /applinks/details/0",
                "AASA122 warning /applinks/apps",
                "AASA151 error /applinks/details/1/components/0/~1",
            ]
        )
    }

    @Test func validateExitsTwoForAMissingFile() async throws {
        let run = try await TestCommand.run("appflip", ["aasa", "validate", "/nonexistent/apple-app-site-association"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("no such file"))
    }

    @Test func matchNamesTheRuleAndExitsByOutcome() async throws {
        try await Self.withFile(Self.example) { path in
            let matched = try await TestCommand.run(
                "appflip",
                [
                    "aasa", "match", "--aasa", path, "--app-id", "ABCDE12345.com.example.app", "https://example.com/buy/42",
                ]
            )
            #expect(matched.status == 0)
            #expect(matched.standardOutput.hasPrefix("match\n"))
            #expect(matched.standardOutput.contains(#"{"/":"/buy/*"}"#))
            #expect(matched.standardOutput.contains("/applinks/details/0/components/1"))

            let excluded = try await TestCommand.run(
                "appflip",
                [
                    "aasa", "match", "--aasa", path, "--app-id", "ABCDE12345.com.example.app", "--json",
                    "https://example.com/buy/1#no_universal_links",
                ]
            )
            #expect(excluded.status == 1)
            let decision = try JSONValue(parsing: Array(excluded.standardOutput.utf8))
            guard case .object(let fields) = decision else {
                Issue.record("not JSON: \(excluded.standardOutput)")
                return
            }
            #expect(fields["decision"] == .string("exclude"))
            #expect(fields["componentIndex"] == .number(0))
            #expect(fields["pointer"] == .string("/applinks/details/0/components/0"))

            let elsewhere = try await TestCommand.run(
                "appflip",
                [
                    "aasa", "match", "--aasa", path, "--app-id", "ABCDE12345.com.example.app", "--domain", "example.com",
                    "https://example.com:8443/buy/42",
                ]
            )
            #expect(elsewhere.status == 1)
            #expect(elsewhere.standardOutput.hasPrefix("no_match\n"))

            let badURL = try await TestCommand.run("appflip", ["aasa", "match", "--aasa", path, "--app-id", "A.b", "not a url"])
            #expect(badURL.status == 2)
            #expect(badURL.standardError.contains("not usable"))
        }
    }

    @Test func matchRefusesAnInvalidFileWithItsDiagnostics() async throws {
        let run = try await Self.withFile(#"{"applinks":{"details":[{"appID":"A.b","components":[{"/":"/$(x"}]}]}}"#) {
            try await TestCommand.run("appflip", ["aasa", "match", "--aasa", $0, "--app-id", "A.b", "https://e.com/"])
        }
        #expect(run.status == 2)
        #expect(run.standardError.contains("AASA151"))
        #expect(run.standardOutput.isEmpty)
    }

    @Test func theStreamAnswersEveryLineEvenBrokenOnes() async throws {
        let input = """
            not json
            {"id":"a","aasa":{},"appId":"x","url":"nope"}
            {"id":2,"aasa":{"applinks":{"details":[{"appID":"x","components":[{"/":"/$(x"}]}]}},"appId":"x","url":"https://e.com/"}

            {"id":3,"aasa":{"applinks":{"details":[{"appID":"x","paths":["/a"]}]}},"appId":"x","url":"https://e.com/a","domain":""}
            """
        let run = try await TestCommand.run("appflip", ["aasa", "match", "--stdin"], input: input)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].contains(#""decision":"error""#) && lines[0].contains(#""id":null"#))
        #expect(lines[1].contains(#""decision":"error""#) && lines[1].contains(#""id":"a""#))
        #expect(lines[2].contains(#""decision":"error""#) && lines[2].contains("AASA151"))
        #expect(lines[3] == #"{"decision":"match","id":3}"#)
        #expect(run.status == 2)
    }
}

import AppFlipArtifacts
import AppFlipCore
import Foundation
import Testing

/// The report `appflip app inspect` prints for an iOS artifact, in text and JSON (docs/artifacts.md).
@Suite struct IOSArtifactReportTests {
    static func report(_ name: String, now: Date = Date()) async throws -> IOSArtifactReport {
        try #require(try IOSArtifacts.inspect(path: try await AppleArtifactFixtures.path(name), now: now))
    }

    @Test func textNamesEverySourceAndItsValues() async throws {
        let lines = try await Self.report("Demo.ipa").textLines
        let text = lines.joined(separator: "\n")
        #expect(lines[0].hasPrefix("iOS app archive: "))
        for expected in [
            "Info.plist (Payload/Demo.app/Info.plist)", "  bundle identifier: com.example.demo",
            "provisioning profile (Payload/Demo.app/embedded.mobileprovision)", "  kind: development (3 provisioned devices, get-task-allow true)",
            "  app ID: ABCDE12345.com.example.demo", "executable (Payload/Demo.app/Demo): universal, armv7, arm64",
            "associated domains (signed entitlements):", "  applinks:example.com", "  applinks:*.example.com?mode=developer",
            "  webcredentials:example.com (webcredentials: listed, not judged)", "app IDs:",
            "  provisioning profile: ABCDE12345.com.example.demo", "  signed entitlements: ABCDE12345.com.example.demo",
            "  code directory: ABCDE12345.com.example.demo", "bundle identifiers:", "  Info.plist: com.example.demo",
        ] {
            #expect(lines.contains(expected), "missing \(expected) in\n\(text)")
        }
        #expect(text.contains("(valid)"))
        #expect(try await Self.report("expired.mobileprovision").textLines.contains { $0.contains("(expired)") })
    }

    @Test func jsonCarriesEachSourceSeparately() async throws {
        let json = try await Self.report("Demo.ipa").json
        guard case .object(let report) = json, case .object(let profile) = report["profile"], case .object(let executable) = report["executable"],
            case .array(let slices) = executable["slices"], case .object(let arm64) = slices.last, case .object(let signature) = arm64["signature"],
            case .object(let domains) = report["associatedDomains"], case .array(let entries) = domains["claim"],
            case .array(let appIDs) = report["appIDs"]
        else {
            Issue.record("unexpected shape: \(json.compactJSON)")
            return
        }
        #expect(report["platform"] == .string("ios"))
        #expect(report["kind"] == .string("ipa"))
        #expect(profile["kind"] == .string("development"))
        #expect(profile["expired"] == .bool(false))
        #expect(profile["associatedDomains"] == .string("*"))
        #expect(arm64["architecture"] == .string("arm64"))
        #expect(signature["identifier"] == .string("com.example.demo"))
        #expect(signature["entitlementsForm"] == .string("der"))
        #expect(domains["source"] == .string("signed entitlements"))
        #expect(entries.count == 5)
        #expect(
            entries[1]
                == .object([
                    "entry": .string("applinks:*.example.com?mode=developer"), "service": .string("applinks"), "host": .string("example.com"),
                    "wildcard": .bool(true), "modes": .array([.string("developer")]), "error": .null,
                ])
        )
        #expect(appIDs.count == 3)
        // The JSON is valid JSON that parses back to itself.
        #expect(try JSONValue(parsing: Array(json.compactJSON.utf8)) == json)
    }

    @Test func aProfileAloneReportsWhatItAllows() async throws {
        let report = try await Self.report("enterprise.mobileprovision")
        #expect(report.textLines.contains("  kind: enterprise (all devices, get-task-allow false)"))
        #expect(report.textLines.contains("    com.apple.developer.associated-domains: *"))
        guard case .object(let json) = report.json else { return }
        #expect(json["associatedDomains"] == .null)
        #expect(json["executable"] == .null)
    }
}

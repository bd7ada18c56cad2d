import AppFlipAudit
import AppFlipCore
import Testing

/// The report model and the association checks, pure.
@Suite struct AuditReportTests {
    @Test func exitStatusFailuresFirstThenUnreachable() {
        #expect(AuditReport(results: []).exitStatus == 0)
        #expect(AuditReport(results: [AuditResult(.tokenNoStore, .warning, "w")]).exitStatus == 0)
        #expect(AuditReport(results: [], unreachable: ["x"]).exitStatus == 1)
        #expect(AuditReport(results: [AuditResult(.tokenBearer, .fail, "f")], unreachable: ["x"]).exitStatus == 2)
        // A precondition that could not be met for a reason outside the rules is 1, a rule failure still 2.
        #expect(AuditReport(results: [AuditResult(.authorizeSignIn, .couldNotRun, "c")]).exitStatus == 1)
        #expect(AuditReport(results: [AuditResult(.authorizeSignIn, .couldNotRun, "c"), AuditResult(.tokenBearer, .fail, "f")]).exitStatus == 2)
    }

    @Test func checksWithoutAResultAreSkippedWithWhatWouldRunThem() {
        let report = AuditReport(results: [AuditResult(.tokenBearer, .pass, "ok")])
        #expect(report.results.map(\.check) == AuditCatalogue.all)
        #expect(report.result(.partnerRoute).outcome == .skipped)
        #expect(report.result(.partnerRoute).reason == "not run: give --link and --client-id")
        #expect(report.result(.associationValid).reason == "not run: give --aasa-file or --aasa-domain, and --app-id")
    }

    static let link = try! RawURL("https://partner.test/link/flip?client_id=c")

    @Test func associationChecks() {
        let routes = Array(#"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/link/*"}]}]}}"#.utf8)
        let passed = AssociationAudit.run(json: routes, source: "f", appID: "T.app", link: Self.link)
        #expect(passed.map(\.outcome) == [.pass, .pass])
        #expect(passed[1].reason == "https://partner.test/link/flip?client_id=c goes to T.app by /applinks/details/0/components/0")

        let excluded = Array(#"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/link/*","exclude":true}]}]}}"#.utf8)
        #expect(AssociationAudit.run(json: excluded, source: "f", appID: "T.app", link: Self.link).map(\.outcome) == [.pass, .fail])
        #expect(AssociationAudit.run(json: routes, source: "f", appID: "T.other", link: Self.link)[1].reason == "f does not name T.other")

        let invalid = AssociationAudit.run(json: Array("{".utf8), source: "f", appID: "T.app", link: Self.link)
        #expect(invalid.map(\.outcome) == [.fail, .skipped])
        #expect(invalid[0].check == .associationValid)
    }
}

import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Testing

/// The protocol's Android routing fields: `options.platform` on `open`, `android.intentFilters` and
/// `android.assetLinks` on `register`, `reason` on a `browser` result; written and read back.
@Suite struct AndroidRoutingMessageTests {
    static let fingerprint = Array(repeating: "12", count: 32).joined(separator: ":")

    @Test func anOpenWithAPlatformIsWrittenAndReadBackAndOneWithoutLeavesItToTheDaemon() throws {
        let request = Request(
            id: .number(4),
            .open(OpenRequest(activity: Activity(webpageURL: "https://a.test/x"), options: OpenOptions(universalLinksOnly: true, platform: .android)))
        )
        let line = String(decoding: request.encodedLine(), as: UTF8.self)
        #expect(line.contains(#""options":{"universalLinksOnly":true,"platform":"android"}"#), "\(line)")
        #expect(try Request.decode(line: Array(line.utf8)).get() == request)

        let without = #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/"}}"#
        guard case .open(let open) = try Request.decode(line: Array(without.utf8)).get().body else { throw CodingTestFailure("not an open") }
        #expect(open.options.platform == nil)

        let bad =
            #"{"id":1,"op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://a.test/"},"options":{"platform":"windows"}}"#
        guard case .failure(let failure) = Request.decode(line: Array(bad.utf8)) else { throw CodingTestFailure("windows accepted") }
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.error.field == "options.platform", "\(failure)")
    }

    @Test func aRegisterCarriesIntentFiltersAndStatementListsInItsAndroidObject() throws {
        let identity = AndroidIdentity(
            package: "com.example.partner",
            fingerprints: [Self.fingerprint],
            intentFilters: [
                IntentFilter(
                    autoVerify: true,
                    schemes: ["https"],
                    authorities: [.init(host: "*.partner.test", port: 8443)],
                    paths: [try PatternMatcher("/link/.*", kind: .simpleGlob), try PatternMatcher(".pdf", kind: .suffix)]
                )
            ]
        )
        let list: JSONValue = .array([.object(["include": .string("https://partner.test/more.json")])])
        let request = Request(
            id: .number(2),
            .register(RegisterRequest(appID: "P.partner", domains: [], android: identity, assetLinks: ["partner.test": list]))
        )
        let line = String(decoding: request.encodedLine(), as: UTF8.self)
        #expect(
            line.contains(#""assetLinks":{"partner.test":[{"include":"https:\/\/partner.test\/more.json"}]}"#)
                || line.contains(#""assetLinks":{"partner.test":[{"include":"https://partner.test/more.json"}]}"#),
            "\(line)"
        )
        #expect(
            line.contains(
                #""data":[{"scheme":"https"},{"host":"*.partner.test","port":8443},{"pathPattern":"\/link\/.*"},{"pathSuffix":".pdf"}]"#
            )
                || line.contains(
                    #""data":[{"scheme":"https"},{"host":"*.partner.test","port":8443},{"pathPattern":"/link/.*"},{"pathSuffix":".pdf"}]"#
                ),
            "\(line)"
        )
        #expect(try Request.decode(line: Array(line.utf8)).get() == request)
    }

    @Test func aBrokenIntentFilterInARegisterNamesItsField() throws {
        let line =
            #"{"id":2,"op":"register","appID":"P.p","android":{"package":"com.example.p","fingerprints":["\#(Self.fingerprint)"],"intentFilters":[{"actions":["V"],"data":[{"scheme":"https","host":"a.test","pathAdvancedPattern":"/[a"}]}]}}"#
        guard case .failure(let failure) = Request.decode(line: Array(line.utf8)) else { throw CodingTestFailure("accepted") }
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.error.field == "android.intentFilters[0].data[0].pathAdvancedPattern", "\(failure)")
    }

    @Test func aBrowserResultSaysWhyOnAndroid() throws {
        let reply = ServerMessage.reply(Reply(id: .number(5), result: .open(OpenResult(status: .browser, reason: "no app has a filter"))))
        let line = String(decoding: reply.encodedLine(), as: UTF8.self)
        #expect(line == #"{"id":5,"ok":true,"op":"open","result":{"opened":[],"reason":"no app has a filter","status":"browser"}}"#)
        #expect(try ServerMessage.decode(line: Array(line.utf8)) == reply)
    }
}

struct CodingTestFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

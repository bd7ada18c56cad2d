import AppFlipCore
import AppFlipProtocol
import FoundationEssentials
import Testing

/// `start`, the `intent` push and `result`: their lines, both ways, and how a bad one is refused.
@Suite struct IntentMessageTests {
    static let intent = Intent(
        action: "com.example.partner.APP_FLIP",
        package: "com.example.partner",
        extras: [
            "CLIENT_ID": .string("client-1"),
            "SCOPE": .stringArray(["profile"]),
            "LIST": .stringArrayList(["a"]),
            "COUNT": .int(-3),
            "FLAG": .boolean(true),
        ]
    )

    @Test func aStartRequestIsWrittenWithTypedExtrasAndReadBack() throws {
        let request = Request(id: .number(5), .start(StartRequest(intent: Self.intent, forResult: true)))
        let line = String(decoding: request.encodedLine(), as: UTF8.self)
        #expect(
            line
                == #"{"forResult":true,"id":5,"intent":{"action":"com.example.partner.APP_FLIP","extras":{"CLIENT_ID":{"string":"client-1"},"COUNT":{"int":-3},"FLAG":{"boolean":true},"LIST":{"stringArrayList":["a"]},"SCOPE":{"stringArray":["profile"]}},"package":"com.example.partner"},"op":"start"}"#
        )
        #expect(try Request.decode(line: Array(line.utf8)).get() == request)
    }

    @Test func aStartWithoutForResultIsNotForAResultAndWithoutExtrasHasNone() throws {
        let line = #"{"id":1,"op":"start","intent":{"action":"a.b.C","package":"com.example.app"}}"#
        let request = try Request.decode(line: Array(line.utf8)).get()
        #expect(request.body == .start(StartRequest(intent: Intent(action: "a.b.C", package: "com.example.app"), forResult: false)))
    }

    @Test func theIntentPushAndTheResultRoundTrip() throws {
        let caller = AndroidCaller(
            package: "com.google.android.googlequicksearchbox",
            fingerprints: [Array(repeating: "AB", count: 32).joined(separator: ":")]
        )
        let push = ServerMessage.intent(
            IntentPush(
                handoff: 3,
                app: "P.partner",
                activity: "com.example.partner.AppFlipActivity",
                intent: Self.intent,
                forResult: true,
                caller: caller
            )
        )
        let pushLine = push.encodedLine()
        #expect(String(decoding: pushLine, as: UTF8.self).contains(#""push":"intent""#))
        #expect(try ServerMessage.decode(line: pushLine) == push)

        let result = Request(
            id: .number(9),
            .result(ResultRequest(handoff: 3, result: IntentResult(resultCode: -1, extras: ["AUTHORIZATION_CODE": .string("c")])))
        )
        let resultLine = String(decoding: result.encodedLine(), as: UTF8.self)
        #expect(resultLine == #"{"extras":{"AUTHORIZATION_CODE":{"string":"c"}},"handoff":3,"id":9,"op":"result","resultCode":-1}"#)
        #expect(try Request.decode(line: Array(resultLine.utf8)).get() == result)

        let reply = ServerMessage.reply(
            Reply(
                id: .number(5),
                result: .start(
                    StartResult(app: "P.partner", package: "com.example.partner", activity: "com.example.partner.AppFlipActivity", resultCode: 0)
                )
            )
        )
        #expect(try ServerMessage.decode(line: reply.encodedLine()) == reply)
    }

    @Test(arguments: [
        (#"{"id":1,"op":"start"}"#, "intent", "`intent` is missing"),
        (#"{"id":1,"op":"start","intent":{"package":"com.example.app"}}"#, "intent.action", "`intent.action` is missing"),
        (
            #"{"id":1,"op":"start","intent":{"action":"a","package":"app"}}"#, "intent.package",
            "`intent.package` is invalid: \"app\" is not a package name: it must have at least one '.' separator"
        ),
        (
            #"{"id":1,"op":"start","intent":{"action":"a","package":"com.1example"}}"#, "intent.package",
            "`intent.package` is invalid: \"com.1example\" is not a package name: bad character '1'"
        ),
        (#"{"id":1,"op":"start","intent":{"action":"a","package":"com.example"},"forResult":"yes"}"#, "forResult", "`forResult` must be a boolean"),
        (#"{"id":1,"op":"result","handoff":1}"#, "resultCode", "`resultCode` is missing"),
        (
            #"{"id":1,"op":"result","handoff":1,"resultCode":-2147483649}"#, "resultCode",
            "`resultCode` is invalid: a Java int is between -2147483648 and 2147483647"
        ),
        (#"{"id":1,"op":"result","handoff":1,"resultCode":0,"extras":{"E":{"int":"1"}}}"#, "extras.E.int", "`extras.E.int` must be an integer"),
    ])
    func aBadLineIsRefusedNamingTheField(line: String, field: String, message: String) throws {
        let failure = try #require(Request.decode(line: Array(line.utf8)).failure)
        #expect(failure.id == .number(1))
        #expect(failure.error.code == .invalidRequest)
        #expect(failure.error.field == field)
        #expect(failure.error.message == message)
    }

    @Test func aRegisterWithAnAndroidIdentityNeedsNoDomains() throws {
        let fingerprint = Array(repeating: "0F", count: 32).joined(separator: ":")
        let line =
            #"{"id":1,"op":"register","appID":"G.google","android":{"package":"com.google.android.googlequicksearchbox","fingerprints":["\#(fingerprint)"]}}"#
        guard case .register(let register) = try Request.decode(line: Array(line.utf8)).get().body else {
            Issue.record("not a register")
            return
        }
        #expect(register.domains == [])
        #expect(register.android == AndroidIdentity(package: "com.google.android.googlequicksearchbox", fingerprints: [fingerprint]))
        let lower = line.replacing("0F", with: "0f")
        let refused = try #require(Request.decode(line: Array(lower.utf8)).failure)
        #expect(refused.error.field == "android.fingerprints[0]")
        // Without `android`, `domains` stays required.
        let plain = #"{"id":1,"op":"register","appID":"T.a","components":[]}"#
        #expect(try #require(Request.decode(line: Array(plain.utf8)).failure).error.field == "domains")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

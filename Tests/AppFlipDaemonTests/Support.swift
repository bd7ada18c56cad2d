import AppFlipClient
import AppFlipCore
import AppFlipProtocol
import NIOCore
import Testing

/// An AASA component that matches every path.
let everything: JSONValue = .object(["/": .string("*")])

extension AppFlipConnection {
    /// Sends an `open` and returns the error reply, failing the test if it succeeded.
    func openError(_ url: String?, activityType: String = browsingWebActivityType, universalLinksOnly: Bool = true) async throws -> ErrorBody {
        let reply = try await send(
            .open(
                OpenRequest(
                    activity: Activity(activityType: activityType, webpageURL: url),
                    options: OpenOptions(universalLinksOnly: universalLinksOnly)
                )
            )
        ).get()
        switch reply.outcome {
        case .success(let result):
            Issue.record("expected an error, got \(result)")
            return ErrorBody(.handlerFailed, "unexpected success")
        case .failure(let error):
            #expect(reply.op == .open)
            return error
        }
    }

    /// Writes one raw line and returns the error reply it gets.
    func rawError(_ line: [UInt8]) async throws -> Reply {
        try await sendRaw(line + [UInt8(ascii: "\n")]).get()
    }
}

/// A live app's registration for `domains`, matching every path.
func registration(_ appID: String, _ domains: [String], components: [JSONValue] = [everything]) -> RegisterRequest {
    RegisterRequest(appID: appID, domains: domains, components: components)
}

import AppFlipClient
import AppFlipDaemon
import AppFlipProtocol
import AppFlipTesting
import NIOCore
import Testing

/// A graceful stop keeps "exactly one reply per request": what a connection read before the close is
/// answered before it closes.
@Suite struct GracefulStopTests {
    /// A live app answers a handoff while the daemon is stopping: the opener gets its reply, and the live
    /// app the acknowledgement of its `answer` before its connection ends. (The stop closed the connections
    /// as the handoff ended, dropping the acknowledgement the daemon held back for a few milliseconds.)
    @Test(.timeLimit(.minutes(5))) func anAnswerDuringTheGracePeriodIsAcknowledgedBeforeTheClose() async throws {
        var configuration = DaemonConfiguration()
        // Far longer than the test: only the handoff's end ends the stop.
        configuration.shutdownGraceSeconds = 600
        configuration.liveAppTimeoutSeconds = 600
        // The live app's progress: registered, then pushed.
        let (steps, step) = AsyncStream.makeStream(of: Void.self)
        let (liveApp, open) = try await withTestDaemon(configuration: configuration) { daemon in
            let socket = daemon.socketPath
            // The live app outlives this closure: it answers once the daemon has begun to stop.
            let liveApp = Task {
                defer { step.finish() }
                return try await Self.answerDuringTheStop(socket: socket, step: step)
            }
            var progress = steps.makeAsyncIterator()
            await progress.next()
            let client = try await daemon.connect()
            let open = client.send(
                .open(OpenRequest(activity: Activity(webpageURL: "https://held.test/"), options: .init(universalLinksOnly: true)))
            )
            await progress.next()
            return (liveApp, open)
        }
        let afterAnswer = try await liveApp.value
        #expect(try await open.get().error == nil, "the opener's handoff completed")
        let acknowledgement = afterAnswer.compactMap { message -> Reply? in
            guard case .reply(let reply) = message, reply.id == .number(99) else { return nil }
            return reply
        }
        #expect(acknowledgement.count == 1, "the live app got, before end of file: \(afterAnswer)")
        #expect(acknowledgement.first?.error == nil)
        #expect(acknowledgement.first?.op == .answer)
    }

    /// Registers `T.held` and reports it, reports its push, waits until the daemon refuses new handoffs (it is stopping),
    /// answers, and returns every message it reads after the answer until the daemon closes the connection.
    static func answerDuringTheStop(socket: String, step: AsyncStream<Void>.Continuation) async throws -> [ServerMessage] {
        try await RawLineSession.with(socket: socket) { raw in
            #expect(try await raw.exchange(#"{"id":1,"op":"hello","version":1}"#)?.error == nil)
            let registered = try await raw.exchange(
                #"{"id":2,"op":"register","appID":"T.held","domains":["applinks:held.test"],"components":[{"/":"*"}]}"#
            )
            try #require(registered?.error == nil)
            step.yield()
            var handoff: UInt64?
            while handoff == nil, let message = try await raw.next() {
                if case .activity(let push) = message { handoff = push.handoff }
            }
            let waiting = try #require(handoff, "the daemon closed the connection before the push")
            step.yield()
            // The positive sign of the stop: an `open` is refused with `shutting_down`.
            var stopping = false
            for attempt in 0..<3000 where !stopping {
                let probe = try await raw.exchange(
                    #"{"id":"probe-\#(attempt)","op":"open","activity":{"activityType":"NSUserActivityTypeBrowsingWeb","webpageURL":"https://nobody.test/"}}"#
                )
                stopping = probe?.error?.code == .shuttingDown
                if !stopping { try await Task.sleep(for: .milliseconds(10)) }
            }
            try #require(stopping, "the daemon did not begin to stop within 30 seconds")
            try await raw.send(#"{"id":99,"op":"answer","handoff":\#(waiting),"continue":true}"#)
            var messages: [ServerMessage] = []
            while let message = try await raw.next() { messages.append(message) }
            return messages
        }
    }
}

import AppFlipHTTPClient
import AppFlipTesting
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import Testing

/// appflip, not the server, ends an idle keep-alive connection: a request written while a server closes its
/// idle connection fails, and whether the server saw it cannot be known (uvicorn closes after 5 s idle).
@Suite struct IdleConnectionTests {
    @Test func theClientClosesAnIdleKeepAliveConnectionBeforeCommonServersDo() async throws {
        try await KeepAliveServer.with { server in
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .appFlipOAuth())
            // The client stays up while the test waits: shutting it down would close the connection too.
            let waited: Result<Int, any Error>
            do {
                let response = try await client.exchange(
                    HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/token"),
                    bounds: .oauth(deadline: .seconds(10)),
                    endpoint: "the test server"
                )
                #expect(response.status == .ok)
                #expect(response.headers.first(name: "connection") == nil, "the answer keeps the connection alive")
                // The server never closes: only the client's idle timeout can end the connection. Gunicorn,
                // the shortest common keep-alive, closes after 2 s; this waits well past that, bounded.
                var tenths = 0
                while server.closedByClient == 0 && tenths < 300 {
                    try await Task.sleep(for: .milliseconds(100))
                    tenths += 1
                }
                waited = .success(tenths)
            } catch {
                waited = .failure(error)
            }
            try await client.shutdown()
            let tenths = try waited.get()
            #expect(tenths < 20 * TestTime.scale, "the client kept the idle connection \(tenths / 10) s, past gunicorn's 2 s keep-alive")
        }
    }
}

/// An HTTP/1.1 server on 127.0.0.1 that answers every request `200 {}` with the connection kept alive, never
/// closes one itself, and counts the connections its client closed.
private struct KeepAliveServer: Sendable {
    let port: Int
    private let closes: ClosedConnections

    var closedByClient: Int { closes.value.load(ordering: .relaxed) }

    static func with(_ body: @Sendable (KeepAliveServer) async throws -> Void) async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let server = KeepAliveServer(port: listener.channel.localAddress?.port ?? 0, closes: ClosedConnections())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { try? await server.serve(connection) }
                        }
                    }
                }
            }
            defer { group.cancelAll() }
            try await body(server)
            try? await listener.channel.close()
        }
    }

    /// Answers each request once its head is in (the test's requests have no body), until the client closes.
    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var pending: [UInt8] = []
            for try await chunk in inbound {
                pending += chunk.readableBytesView
                while let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                    pending.removeSubrange(..<end.upperBound)
                    try await outbound.write(ByteBuffer(string: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
                }
            }
            closes.value.add(1, ordering: .relaxed)
        }
    }
}

private final class ClosedConnections: Sendable {
    let value = Atomic<Int>(0)
}

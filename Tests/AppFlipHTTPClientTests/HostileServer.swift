import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// How a hostile server misbehaves once it has read a request. Each loop is bounded; a silent shape waits
/// for the client to close.
enum HostileShape: String, CaseIterable, Sendable {
    /// Accepts, reads the request, never answers. Under an https URL to a plain server: a TLS handshake
    /// that never completes.
    case silent
    /// A status line and headers announcing 100 bytes, then nothing.
    case headersThenSilence
    /// Headers announcing 1000 bytes, then one byte every 100 ms.
    case trickle
    /// A chunked body without end, as fast as the client reads.
    case endlessBody
    /// Header lines without end.
    case endlessHeaders
    /// One 100 KiB header, then a small complete answer.
    case hugeHeaders
    /// A 200,000-byte body (past the OAuth 64 KiB and the association file's 128 KiB), with its `Content-Length`.
    case pastCapWithLength
    /// A 200,000-byte chunked body, finished.
    case pastCapChunked
    /// HTTP/1.0, no length: the body ends when the connection closes.
    case closeDelimited
    /// A chunk announced as 65,535 bytes, 10 sent, then the connection closed.
    case lyingChunkSize
    /// A status line that is not one.
    case malformedStatusLine
    /// 100 of 1000 announced bytes, then a TCP reset.
    case resetMidBody
    /// 200 application/json whose body is not UTF-8.
    case nonUTF8JSON
    /// 200 application/json nested 20,000 arrays deep (40,000 bytes).
    case deeplyNestedJSON
    /// 200 with tokens and `"expires_in":1e999`.
    case infiniteExpiresIn
    /// 200 application/json, `Content-Encoding: gzip` and gzip bytes, though the request asked for none.
    case unaskedGzip
    /// 302 to the URL that was requested.
    case redirectLoop
}

/// A misbehaving HTTP/1.1 server on 127.0.0.1, raw NIO (with TLS when given an identity): it reads each
/// request whole, then answers as its shape says.
struct HostileServer: Sendable {
    let port: Int
    private let requests: RequestCount

    /// How many requests the server has read.
    var requestCount: Int { requests.value.load(ordering: .relaxed) }

    /// Runs `body` with a server of `shape`, then closes it and every connection.
    static func with<T: Sendable>(
        _ shape: HostileShape,
        tls: TestCertificateAuthority.ServerIdentity? = nil,
        _ body: @Sendable (HostileServer) async throws -> T
    ) async throws -> T {
        let context = try tls.map { identity in
            try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { .certificate($0) },
                    privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
                )
            )
        }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let server = HostileServer(port: listener.channel.localAddress?.port ?? 0, requests: RequestCount())
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await listener.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { try? await server.serve(connection, shape: shape) }
                        }
                    }
                }
            }
            defer { group.cancelAll() }
            let result = try await body(server)
            try? await listener.channel.close()
            return result
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, shape: HostileShape) async throws {
        let channel = connection.channel
        try await connection.executeThenClose { inbound, outbound in
            var reader = inbound.makeAsyncIterator()
            guard let path = try await Self.readRequest(&reader) else { return }
            requests.value.add(1, ordering: .relaxed)
            func send(_ text: String) async throws { try await outbound.write(ByteBuffer(string: text)) }
            func send(_ bytes: [UInt8]) async throws { try await outbound.write(ByteBuffer(bytes: bytes)) }
            func waitForClose() async throws { while try await reader.next() != nil {} }
            let json = "Content-Type: application/json\r\nConnection: close\r\n"
            switch shape {
            case .silent:
                try await waitForClose()
            case .headersThenSilence:
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: 100\r\n\r\n")
                try await waitForClose()
            case .trickle:
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: 1000\r\n\r\n")
                for _ in 0..<1000 {
                    try await Task.sleep(for: .milliseconds(100))
                    try await send(" ")
                }
            case .endlessBody:
                try await send("HTTP/1.1 200 OK\r\n\(json)Transfer-Encoding: chunked\r\n\r\n")
                let chunk = "4000\r\n" + String(repeating: "[", count: 0x4000) + "\r\n"
                for _ in 0..<4096 { try await send(chunk) }
            case .endlessHeaders:
                try await send("HTTP/1.1 200 OK\r\n")
                let value = String(repeating: "a", count: 1000)
                for batch in 0..<10_000 {
                    try await send((0..<16).map { "X-Filler-\(batch)-\($0): \(value)\r\n" }.joined())
                }
            case .hugeHeaders:
                try await send("HTTP/1.1 200 OK\r\nX-Huge: \(String(repeating: "a", count: 100 * 1024))\r\n\(json)Content-Length: 2\r\n\r\n{}")
            case .pastCapWithLength:
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: 200000\r\n\r\n" + String(repeating: " ", count: 200_000))
            case .pastCapChunked:
                try await send("HTTP/1.1 200 OK\r\n\(json)Transfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<20 { try await send("2710\r\n" + String(repeating: " ", count: 10_000) + "\r\n") }
                try await send("0\r\n\r\n")
            case .closeDelimited:
                try await send("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"error\":\"invalid_grant\"}")
            case .lyingChunkSize:
                try await send("HTTP/1.1 200 OK\r\n\(json)Transfer-Encoding: chunked\r\n\r\nffff\r\n0123456789")
            case .malformedStatusLine:
                try await send("HTTP/1.1 two hundred OK\r\n\(json)\r\n")
                try await waitForClose()
            case .resetMidBody:
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: 1000\r\n\r\n" + String(repeating: " ", count: 100))
                try await Task.sleep(for: .milliseconds(50))
                // SO_LINGER 0: the close is a reset, not a FIN.
                try await (channel as! any SocketOptionProvider).setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
            case .nonUTF8JSON:
                let body: [UInt8] = [0x7B, 0x22, 0x61, 0xFF, 0xFE, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D]
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: \(body.count)\r\n\r\n")
                try await send(body)
            case .deeplyNestedJSON:
                let body = String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000)
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            case .infiniteExpiresIn:
                let body = "{\"access_token\":\"opaque-\(requestCount)\",\"token_type\":\"Bearer\",\"expires_in\":1e999,\"refresh_token\":\"r\"}"
                try await send("HTTP/1.1 200 OK\r\n\(json)Cache-Control: no-store\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            case .unaskedGzip:
                try await send("HTTP/1.1 200 OK\r\n\(json)Content-Encoding: gzip\r\nContent-Length: \(Self.gzippedTokens.count)\r\n\r\n")
                try await send(Self.gzippedTokens)
            case .redirectLoop:
                try await send("HTTP/1.1 302 Found\r\nLocation: \(path)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            }
        }
    }

    /// Reads one request whole (headers, and as many body bytes as its `Content-Length` says); returns its
    /// target, or nil when the client closed first. Answering before the request is read would make the
    /// close a reset.
    private static func readRequest(_ reader: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) async throws -> String? {
        var bytes: [UInt8] = []
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while bytes.count < 64 * 1024 {
            guard let chunk = try await reader.next() else { return nil }
            bytes += chunk.readableBytesView
            guard let headerEnd = bytes.firstRange(of: end)?.upperBound else { continue }
            let head = String(decoding: bytes[..<headerEnd], as: UTF8.self)
            let length =
                head.split(separator: "\r\n")
                .first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
            guard bytes.count - headerEnd >= length else { continue }
            let requestLine = head.prefix { $0 != "\r" }.split(separator: " ")
            return requestLine.count > 1 ? String(requestLine[1]) : "/"
        }
        return nil
    }

    /// `{"access_token":"inflated-by-the-client","token_type":"Bearer","expires_in":3600,"refresh_token":"r"}`, gzipped.
    static let gzippedTokens: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x3D, 0x8C, 0x41, 0x0A, 0x80, 0x20, 0x14, 0x05, 0xEF, 0xF2, 0xD7,
        0x0A, 0x42, 0xD0, 0xA2, 0x65, 0x17, 0x11, 0xB3, 0x27, 0x4A, 0x62, 0xF2, 0xFD, 0x8B, 0x24, 0xBA, 0x7B, 0xD2, 0xA2, 0xED, 0x30,
        0x33, 0x37, 0x39, 0xEF, 0xD1, 0x9A, 0x95, 0xF3, 0x40, 0xA1, 0x85, 0x52, 0x09, 0xD9, 0x09, 0x76, 0xBD, 0x75, 0x2D, 0x11, 0xDA,
        0xE7, 0x84, 0x22, 0xA4, 0xE8, 0x13, 0xAC, 0xF4, 0x8A, 0x61, 0xAD, 0x70, 0x0C, 0x1E, 0x14, 0x57, 0x4D, 0x8C, 0x66, 0xD3, 0x68,
        0xA7, 0xD9, 0x18, 0x45, 0x8C, 0x30, 0x40, 0xFC, 0x87, 0x4C, 0xCF, 0x0B, 0xF1, 0xE6, 0x3E, 0xAA, 0x65, 0x00, 0x00, 0x00,
    ]
}

/// Requests read, across connections.
private final class RequestCount: Sendable {
    let value = Atomic<Int>(0)
}

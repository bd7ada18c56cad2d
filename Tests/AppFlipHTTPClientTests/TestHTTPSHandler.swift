import NIOCore
import NIOHTTP1

/// Answers each request by its path with the server's routes; an unknown path is 404.
final class TestHTTPSHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: @Sendable (String) -> TestHTTPResponse?
    private var path = ""

    init(routes: @escaping @Sendable (String) -> TestHTTPResponse?) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): path = String(head.uri.prefix { $0 != "?" })
        case .body: break
        case .end: respond(context: context, with: routes(path) ?? .whole(.notFound, [("Content-Type", "text/plain")], Array("no file here\n".utf8)))
        }
    }

    private func respond(context: ChannelHandlerContext, with response: TestHTTPResponse) {
        switch response {
        case .silence:
            return
        case .whole(let status, let fields, let body):
            var headers = HTTPHeaders(fields)
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        case .streamed(let chunk, let chunks):
            let headers = HTTPHeaders([("Content-Type", "application/json")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            let buffer = context.channel.allocator.buffer(bytes: chunk)
            for _ in 0..<chunks {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            }
        case .chunked(let body):
            let headers = HTTPHeaders([("Content-Type", "application/json")])
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            var start = body.startIndex
            while start < body.endIndex {
                let end = min(start + 16 * 1024, body.endIndex)
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body[start..<end])))), promise: nil)
                start = end
            }
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

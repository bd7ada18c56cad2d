import NIOHTTP1

/// What a test server answers for one path.
enum TestHTTPResponse: Sendable {
    /// A status, headers and a body sent whole, with its Content-Length.
    case whole(HTTPResponseStatus, [(String, String)], [UInt8])
    /// 200 `application/json`, the body sent in chunks without a Content-Length, `chunks` times `chunk`.
    case streamed(chunk: [UInt8], chunks: Int)
    /// 200 `application/json`, `body` sent in 16 KiB chunks without a Content-Length.
    case chunked([UInt8])
    /// Nothing, ever: the request is read and never answered.
    case silence

    /// 200 with `body` as `contentType`.
    static func file(_ body: [UInt8], contentType: String = "application/json") -> TestHTTPResponse {
        .whole(.ok, [("Content-Type", contentType)], body)
    }
}

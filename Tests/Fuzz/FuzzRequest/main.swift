import AppFlipCore
import FuzzSupport

@testable import AppFlipProtocol

/// Decodes one request line both ways: the hot path (`RequestFastPath`, on `FastJSONScanner`) must either
/// decline or return exactly what the `JSONDecoder` reference returns, `Request.decode(line:)` must equal the
/// reference, and a decoded request must survive its own encoding unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = fuzzBytes(start, count)
    let reference = Request.decodeWithJSONDecoder(line: line)
    if let fast = line.withUnsafeBytes({ RequestFastPath.decode($0) }) {
        fuzzCheck(reference == .success(fast), "fast path \(fast) but reference \(reference)")
    }
    let decoded = Request.decode(line: line)
    fuzzCheck(decoded == reference, "Request.decode gives \(decoded), the reference \(reference)")
    if case .success(let request) = reference {
        let encoded = request.encodedLine()
        fuzzCheck(
            Request.decode(line: encoded) == .success(request),
            "re-encoded \(String(decoding: encoded, as: UTF8.self)) decodes differently from \(request)"
        )
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)

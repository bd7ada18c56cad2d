import AppFlipCore
import FoundationEssentials
import FuzzSupport

@testable import AppFlipProtocol

/// Decodes one server line both ways: the hot path (`ServerMessageFastPath`, on `FastJSONScanner`) must
/// either decline or return exactly what `JSONDecoder` returns, and a decoded message must survive its own
/// encoding unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let line = fuzzBytes(start, count)
    let reference = try? JSONDecoder().decode(ServerMessage.self, from: Data(line))
    if let fast = line.withUnsafeBytes({ ServerMessageFastPath.decode($0) }) {
        fuzzCheck(reference == fast, "fast path \(fast) but reference \(String(describing: reference))")
    }
    fuzzCheck((try? ServerMessage.decode(line: line)) == reference, "ServerMessage.decode disagrees with the reference")
    if let reference {
        let encoded = reference.encodedLine()
        fuzzCheck(
            (try? ServerMessage.decode(line: encoded)) == reference,
            "re-encoded \(String(decoding: encoded, as: UTF8.self)) decodes differently from \(reference)"
        )
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)

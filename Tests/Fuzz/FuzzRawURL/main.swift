import AppFlipCore
import FuzzSupport

/// `RawURL` on any text: it refuses or splits, and a split URL keeps its text exactly, its components
/// put back together are that text, parsing it again gives the same URL, and reading it as a flip link
/// does not trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: fuzzBytes(start, count), as: UTF8.self)
    guard let url = try? RawURL(text) else { return 0 }
    fuzzCheck(url.string == text, "string \(url.string) is not the text \(text)")
    var rebuilt = url.scheme + "://"
    if let userinfo = url.userinfo { rebuilt += userinfo + "@" }
    rebuilt += url.host
    if let port = url.port { rebuilt += ":" + port }
    rebuilt += url.path
    if let query = url.query { rebuilt += "?" + query }
    if let fragment = url.fragment { rebuilt += "#" + fragment }
    fuzzCheck(rebuilt == text, "components \(rebuilt) are not the text \(text)")
    fuzzCheck((try? RawURL(url.string)) == url, "parsing \(text) again gives another URL")
    _ = url.normalizedHost
    _ = FlipLink(url)
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)

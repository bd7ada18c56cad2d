import AppFlipCore
import FuzzSupport

/// The AASA parser and loader on any bytes: the text before the first NUL is the file, the text after it a
/// URL to route. A parsed document must print (`compactJSON`) as JSON that parses back to the same value;
/// validating and loading must not trap, and a loaded file must decide every app ID it lists for any URL.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzBytes(start, count)
    let split = input.firstIndex(of: 0) ?? input.endIndex
    let json = input[..<split]

    if let value = try? JSONValue(parsing: json) {
        let printed = value.compactJSON
        fuzzCheck((try? JSONValue(parsing: Array(printed.utf8))) == value, "compactJSON \(printed) does not parse back")
    }
    _ = AssociationFile.validate(json: json)
    guard let file = try? AssociationFile(json: json) else { return 0 }

    var urls = [
        "https://example.com/", "https://example.com/buy/12?color=red&size=%E2%82%AC#top",
        "https://EXAMPLE.com:443/a/b/c.html?x=1+2&y", "https://example.com/%2F..%2f/?q=%zz",
    ]
    if split < input.endIndex { urls.append(String(decoding: input[(split + 1)...], as: UTF8.self)) }
    let appIDs = file.appIDs.prefix(8)
    for url in urls.compactMap({ try? RawURL($0) }) {
        for appID in appIDs { _ = file.decide(appID: appID, url: url) }
        _ = file.decide(appID: "ABCDE12345.com.example.app", url: url)
    }
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)

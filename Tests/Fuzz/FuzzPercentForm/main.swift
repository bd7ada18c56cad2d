import AppFlipCore
import FuzzSupport

/// Percent and form decoding on any bytes. Decoding with and without `+` as a space succeeds together and to
/// the same length; strict encoding writes only unreserved bytes and `%XX`, and decodes back to the text;
/// form fields never contain a separator; and `FormEncoding.encode` then `fields` gives back every pair.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let asURL = PercentEncoding.decode(bytes, plusIsSpace: false)
    let asForm = PercentEncoding.decode(bytes, plusIsSpace: true)
    fuzzCheck((asURL == nil) == (asForm == nil), "decoding succeeds for only one meaning of +")
    if let asURL, let asForm {
        fuzzCheck(asURL.count == asForm.count && asURL.count <= bytes.count, "decoded lengths differ")
    }

    let text = String(decoding: bytes, as: UTF8.self)
    let encoded = PercentEncoding.encodeStrictly(text)
    fuzzCheck(
        encoded.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") },
        "encodeStrictly left a reserved byte in \(encoded)"
    )
    fuzzCheck(PercentEncoding.decode(encoded.utf8, plusIsSpace: true) == Array(text.utf8), "encoded text does not decode back")
    fuzzCheck(PercentEncoding.formDecode(encoded) == text, "formDecode does not give back the text")

    for field in FormEncoding.fields(of: bytes) {
        fuzzCheck(!field.name.contains(UInt8(ascii: "&")) && !field.value.contains(UInt8(ascii: "&")), "a field holds an &")
        fuzzCheck(!field.name.contains(UInt8(ascii: "=")), "a field name holds an =")
        fuzzCheck(!field.name.isEmpty || !field.value.isEmpty || bytes.contains(UInt8(ascii: "=")), "an empty field was kept")
    }

    let words = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let pairs = stride(from: 0, to: words.count - 1, by: 2).map { (name: words[$0], value: words[$0 + 1]) }
    let decoded = FormEncoding.fields(of: Array(FormEncoding.encode(pairs).utf8)).map { field in
        (
            name: PercentEncoding.formDecode(String(decoding: field.name, as: UTF8.self)) ?? "\u{0}",
            value: PercentEncoding.formDecode(String(decoding: field.value, as: UTF8.self)) ?? "\u{0}"
        )
    }
    fuzzCheck(decoded.elementsEqual(pairs, by: { $0 == $1 }), "encode then fields changed the pairs \(pairs) into \(decoded)")
    return 0
}

runFuzzer(LLVMFuzzerTestOneInput)

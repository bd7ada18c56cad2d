/// One query item, split at the first `=`; an item without `=` has an empty value.
struct QueryItem: Sendable {
    let name: ArraySlice<UInt8>
    let value: ArraySlice<UInt8>
}

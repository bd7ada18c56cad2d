/// One `details` entry, compiled.
struct CompiledDetail: Sendable {
    let appIDs: [String]
    let rules: [CompiledRule]
}

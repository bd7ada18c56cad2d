/// Independent probes of one endpoint, run a bounded number at a time (`--concurrency`), so that a partner's
/// distant server answers a family of requests in a fraction of the time one at a time takes, and is never
/// sent more than the bound at once. Results come back in the probes' order.
enum BoundedProbes {
    static func run<Probe: Sendable, Output: Sendable>(
        _ probes: [Probe],
        limit: Int,
        _ body: @escaping @Sendable (Probe) async throws(AuditUnreachable) -> Output
    ) async throws(AuditUnreachable) -> [Output] {
        do {
            return try await withThrowingTaskGroup(of: (Int, Output).self) { group in
                var outputs = [Output?](repeating: nil, count: probes.count)
                var next = 0
                while next < min(max(limit, 1), probes.count) {
                    let index = next
                    group.addTask { (index, try await body(probes[index])) }
                    next += 1
                }
                while let (index, output) = try await group.next() {
                    outputs[index] = output
                    if next < probes.count {
                        let following = next
                        group.addTask { (following, try await body(probes[following])) }
                        next += 1
                    }
                }
                return outputs.compactMap { $0 }
            }
        } catch let error as AuditUnreachable {
            throw error
        } catch {
            throw AuditUnreachable("\(error)")
        }
    }
}

import AppFlipProtocol

/// The ids of one connection's requests in flight, so that a duplicate is refused.
///
/// A connection nearly always has none or one in flight. Up to ``inlineLimit`` ids are kept in an array and
/// compared in turn, which is cheaper than hashing an id into a `Set` on every insert and remove
/// (`Benchmarks/instructions-per-handoff` shows it); the ids past that go into a set, so that a connection with a
/// thousand in flight is not scanned a thousand times a line.
struct InFlightRequestIDs {
    /// How many ids are compared in turn before the rest are hashed.
    static let inlineLimit = 8

    private var few: [RequestID] = []
    private var many: Set<RequestID> = []

    var count: Int { few.count + many.count }
    var isEmpty: Bool { few.isEmpty && many.isEmpty }

    func contains(_ id: RequestID) -> Bool {
        few.contains(id) || (!many.isEmpty && many.contains(id))
    }

    /// Adds `id`, which the caller has checked is not in flight.
    mutating func insert(_ id: RequestID) {
        assert(!contains(id), "id \(id) is already in flight")
        if few.count < Self.inlineLimit {
            few.append(id)
        } else {
            many.insert(id)
        }
    }

    /// Removes `id` if it is in flight.
    mutating func remove(_ id: RequestID) {
        if let index = few.firstIndex(of: id) {
            // Order does not matter: the last id takes the removed one's place, and nothing moves.
            few.swapAt(index, few.count - 1)
            few.removeLast()
        } else if !many.isEmpty {
            many.remove(id)
        }
    }
}

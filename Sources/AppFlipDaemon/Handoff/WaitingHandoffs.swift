import NIOCore

/// The handoffs a live app was pushed and has not answered, by their ids.
///
/// The app's handler gives ids in push order, one apart, and every handoff the same timeout, so the oldest
/// waiting handoff is always the next to time out. A ring of slots, the handoff with id `firstID + i` in
/// slot `i`, keeps both the lookup by id and that order without hashing, which a dictionary and a queue of
/// ids cost every live-app handoff (`Benchmarks/instructions-per-handoff` shows it). An answered slot
/// is emptied, and empty slots leave the front at once, so the front slot always holds the oldest.
struct WaitingHandoffs<Waiting> {
    private var slots = CircularBuffer<Waiting?>()
    /// The id of the front slot.
    private var firstID: UInt64 = 1
    /// The handoffs waiting.
    private(set) var count = 0

    init() {}

    /// The oldest handoff waiting.
    var oldest: Waiting? {
        slots.first ?? nil
    }

    /// Adds a handoff under the next id, which it returns.
    mutating func append(_ waiting: Waiting) -> UInt64 {
        let id = firstID + UInt64(slots.count)
        slots.append(waiting)
        count += 1
        return id
    }

    /// The handoff waiting under `id`, left in place; `nil` if none waits under it.
    func waiting(id: UInt64) -> Waiting? {
        guard id >= firstID, id - firstID < UInt64(slots.count) else { return nil }
        return slots[offset: Int(id - firstID)] ?? nil
    }

    /// Takes out the handoff with `id`: `nil` if none waits under it (answered, timed out, or never given).
    mutating func remove(id: UInt64) -> Waiting? {
        guard id >= firstID, id - firstID < UInt64(slots.count) else { return nil }
        let offset = Int(id - firstID)
        guard let waiting = slots[offset: offset] else { return nil }
        slots[offset: offset] = nil
        count -= 1
        while let first = slots.first, first == nil {
            slots.removeFirst()
            firstID += 1
        }
        return waiting
    }

    /// Takes out the oldest handoffs, from the oldest, as long as `isDue` holds for them.
    mutating func removeOldest(while isDue: (Waiting) -> Bool) -> [Waiting] {
        var removed: [Waiting] = []
        while let first = slots.first {
            if let waiting = first {
                guard isDue(waiting) else { break }
                removed.append(waiting)
                count -= 1
            }
            slots.removeFirst()
            firstID += 1
        }
        return removed
    }

    /// Takes out every handoff, oldest first.
    mutating func removeAll() -> [Waiting] {
        removeOldest { _ in true }
    }
}

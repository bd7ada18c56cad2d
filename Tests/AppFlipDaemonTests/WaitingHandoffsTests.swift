import Testing

@testable import AppFlipDaemon

/// The live app's table of handoffs waiting for an answer: ids in push order, lookup by id, the oldest
/// first, whatever order the answers come in.
@Suite struct WaitingHandoffsTests {
    @Test func idsFollowThePushOrderFromOne() {
        var waiting = WaitingHandoffs<String>()
        #expect(waiting.append("a") == 1)
        #expect(waiting.append("b") == 2)
        #expect(waiting.append("c") == 3)
        #expect(waiting.count == 3)
        #expect(waiting.oldest == "a")
    }

    @Test func answersInAnyOrderFindTheirHandoffOnce() {
        var waiting = WaitingHandoffs<String>()
        for name in ["a", "b", "c", "d"] { _ = waiting.append(name) }
        #expect(waiting.remove(id: 3) == "c")
        #expect(waiting.remove(id: 3) == nil, "answered already")
        #expect(waiting.oldest == "a")
        #expect(waiting.remove(id: 1) == "a")
        #expect(waiting.oldest == "b", "the answered slots in front are gone")
        #expect(waiting.remove(id: 4) == "d")
        #expect(waiting.remove(id: 2) == "b")
        #expect(waiting.count == 0)
        #expect(waiting.oldest == nil)
        #expect(waiting.append("e") == 5, "ids go on after the table empties")
    }

    @Test func idsNeverGivenFindNothing() {
        var waiting = WaitingHandoffs<String>()
        #expect(waiting.remove(id: 1) == nil)
        _ = waiting.append("a")
        #expect(waiting.remove(id: 0) == nil)
        #expect(waiting.remove(id: 2) == nil)
        #expect(waiting.remove(id: .max) == nil)
        #expect(waiting.count == 1)
    }

    @Test func theOldestLeaveWhileDueSkippingTheAnswered() {
        var waiting = WaitingHandoffs<Int>()
        for deadline in [10, 20, 30, 40] { _ = waiting.append(deadline) }
        _ = waiting.remove(id: 2)
        #expect(waiting.removeOldest { $0 <= 30 } == [10, 30])
        #expect(waiting.oldest == 40)
        #expect(waiting.count == 1)
        #expect(waiting.remove(id: 4) == 40)
        #expect(waiting.append(50) == 5)
        #expect(waiting.removeAll() == [50])
        #expect(waiting.count == 0)
    }
}

import AppFlipProtocol
import Testing

@testable import AppFlipDaemon

/// A connection's ids in flight: the same answers as a `Set`, on both sides of the inline limit.
@Suite struct InFlightRequestIDsTests {
    @Test func numbersAndStringsAreDifferentIDs() {
        var ids = InFlightRequestIDs()
        ids.insert(.number(1))
        #expect(ids.contains(.number(1)))
        #expect(!ids.contains(.string("1")))
        ids.insert(.string("1"))
        #expect(ids.count == 2)
        ids.remove(.number(1))
        #expect(!ids.contains(.number(1)))
        #expect(ids.contains(.string("1")))
    }

    @Test func idsPastTheInlineLimitAreFoundAndRemoved() {
        var ids = InFlightRequestIDs()
        let all = (0..<(InFlightRequestIDs.inlineLimit * 3)).map { RequestID.number(Int64($0)) }
        for id in all { ids.insert(id) }
        #expect(ids.count == all.count)
        #expect(all.allSatisfy { ids.contains($0) })
        for id in all.reversed() {
            ids.remove(id)
            #expect(!ids.contains(id))
        }
        #expect(ids.isEmpty)
    }

    /// Random inserts (of ids not in flight, as the connection checks), removes and lookups, against a
    /// `Set`, over more ids than the inline limit so that both halves fill and empty in every order.
    @Test func agreesWithASetOverRandomOperations() {
        var state: UInt64 = 0x1D5_F11B
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var ids = InFlightRequestIDs()
        var model = Set<RequestID>()
        let universe = (0..<40).map { $0 % 3 == 0 ? RequestID.string("r\($0)") : RequestID.number(Int64($0)) }
        for _ in 0..<20_000 {
            let id = universe[next(universe.count)]
            switch next(3) {
            case 0:
                if !model.contains(id) {
                    ids.insert(id)
                    model.insert(id)
                }
            case 1:
                ids.remove(id)
                model.remove(id)
            default:
                break
            }
            #expect(ids.contains(id) == model.contains(id))
            #expect(ids.count == model.count)
            #expect(ids.isEmpty == model.isEmpty)
        }
        #expect(universe.allSatisfy { ids.contains($0) == model.contains($0) })
    }
}

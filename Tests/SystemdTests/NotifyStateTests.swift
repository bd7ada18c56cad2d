import Testing

@testable import Systemd

@Suite struct NotifyStateTests {
    @Test(arguments: [
        (NotifyState.ready, "READY=1"),
        (.stopping, "STOPPING=1"),
        (.watchdog, "WATCHDOG=1"),
        (.status("Serving 3 apps"), "STATUS=Serving 3 apps"),
        (.status("line one\nline two\r\nthree"), "STATUS=line one line two three"),
        (.reloading(monotonicMicroseconds: 123_456), "RELOADING=1\nMONOTONIC_USEC=123456"),
    ])
    func formatsAssignments(state: NotifyState, expected: String) {
        #expect(state.assignment == expected)
    }

    @Test func joinsStatesIntoOneMessage() {
        #expect(NotifyState.message([.ready, .status("ok")]) == "READY=1\nSTATUS=ok")
    }

    @Test func reloadingNowCarriesTheMonotonicClock() throws {
        guard case .reloading(let first) = NotifyState.reloadingNow(),
            case .reloading(let second) = NotifyState.reloadingNow()
        else {
            Issue.record("reloadingNow() is not a reload")
            return
        }
        #expect(first > 0)
        #expect(second >= first)
    }
}

import Logging
import Testing

@testable import Systemd

@Suite struct JournalPriorityTests {
    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func mapsLevelsToSyslogPriorities(level: Logger.Level, priority: Int) {
        #expect(JournalPriority(level).rawValue == priority)
    }
}

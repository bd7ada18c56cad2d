import Testing

@testable import Systemd

@Suite struct JournalStreamTests {
    @Test(arguments: [
        ("8:1234", true), ("8:1235", false), ("9:1234", false), ("8:1234:1", false), ("", false),
        ("8:", false), (":1234", false), ("x:y", false), ("-8:1234", false),
    ])
    func matchesDeviceAndInode(value: String, matches: Bool) {
        #expect(JournalStream.matches(value, device: 8, inode: 1234) == matches)
    }
}

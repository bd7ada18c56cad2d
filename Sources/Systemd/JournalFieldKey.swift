/// A metadata key resolved into its journal field once: the field's name (`APPFLIP_HANDOFF_ID`), whether its
/// values are credentials, and its place in the entry's order.
///
/// A ``JournalFieldSource`` whose keys are fixed resolves them once, with the handler that writes its
/// entries (``JournalLogHandler/fieldKey(_:)``), instead of looking each one up again for every entry in a
/// table shared by every thread that logs: for the daemon's handoff record that lookup, behind its lock, was
/// a fifth of what writing the fields cost.
struct JournalFieldKey: Sendable {
    let resolved: JournalFieldName.Resolved
}

extension JournalFieldName {
    /// `key` resolved into its journal field under this prefix.
    func fieldKey(_ key: String) -> JournalFieldKey {
        JournalFieldKey(resolved: resolve(key: key))
    }
}

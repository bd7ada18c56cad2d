import AppFlipCore

/// What one audit run shares across its targets: the findings and needs (``AuditLedger``), every HTTP
/// exchange (``ExchangeRecorder``) and every code handed out (``CodeRegistry``). The verdicts are built from
/// it once, at the end, so that an answer judged late (a refresh answer's shape, a code handed out twice)
/// reaches the check whose rule it broke, whichever probe saw it.
final class AuditContext: Sendable {
    let ledger = AuditLedger()
    let exchanges = ExchangeRecorder()
    let codes = CodeRegistry()
}

import Testing

@testable import ToneShaperJack

/// What the xrun and freewheel notifications do to the counts `/stats` reports.
@Suite struct FreewheelAccountingTests {
    @Test func xrunsOutsideFreewheelCount() {
        let signals = NodeSignals()
        signals.countXrun()
        signals.countXrun()
        #expect(signals.xruns.load(ordering: .relaxed) == 2)
    }

    @Test func xrunsDuringAndJustAfterFreewheelDoNot() {
        let signals = NodeSignals()
        signals.freewheelStarted()
        signals.countXrun()
        #expect(signals.xruns.load(ordering: .relaxed) == 0)
        signals.freewheelStopped()
        signals.countXrun()  // the driver finds itself late as freewheel ends
        #expect(signals.xruns.load(ordering: .relaxed) == 0)
    }

    @Test func xrunsReportedJustBeforeFreewheelSaysItStartedAreTakenBack() {
        let signals = NodeSignals()
        signals.countXrun()
        signals.countXrun()
        signals.freewheelStarted()
        #expect(signals.xruns.load(ordering: .relaxed) == 0)
    }
}

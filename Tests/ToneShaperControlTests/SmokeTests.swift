import Testing
import ToneShaperControl
import ToneShaperTestSupport

@Test func defaultShapeRendersASaneTone() {
    let out = OfflineRenderer.render(.defaultShape, sampleRate: 48000, frames: 96000)
    #expect(SignalAnalysis.allFinite(out))
    #expect(SignalAnalysis.peak(out) <= 0.25)
    #expect(SignalAnalysis.peak(out) > 0.2)
    let f = SignalAnalysis.zeroCrossingFrequency(out, sampleRate: 48000, range: 47000..<49000)!
    #expect(abs(f - 330) < 5, "frequency mid-cycle \(f)")
}

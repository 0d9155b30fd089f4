import ToneShaperAudio
import ToneShaperModel

extension CurveStorage {
    /// The storage of a plan of `shape`'s curve.
    public convenience init(shape: ToneShape, sampleRate: Double, id: Int) {
        self.init(curve: shape.curve, sampleRate: sampleRate, id: id)
    }
}

import ToneShaperDSP

extension ToneEngine {
    /// Where the drone is in the cycle, 0..<1: an editor's playhead. (In instrument mode the
    /// drone is not heard, but its place runs on all the same.)
    public var cyclePosition: Double {
        let voice = drone
        return voice.planLength > 0 ? Double(voice.main.cycleIndex) / Double(voice.planLength) : 0
    }
}

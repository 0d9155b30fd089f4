import ToneShaperDSP
import ToneShaperParameters

/// One voice playing the engine's plan: the drone, or a note of instrument mode. Its main
/// and echo voices' places in the cycle and phases under the plan it follows, and, while the
/// engine cross-fades from the plan it played before, its state under that plan too.
/// Plain data: the drone is the engine's, the notes sit in the performer's fixed pool, and
/// all of them render through `ToneEngine.renderVoice` and mix through `VoiceMix`.
struct PlayingVoice: BitwiseCopyable {
    var main: VoiceState
    var echo: VoiceState
    /// The plan its cycle positions belong to, and that plan's cycle length.
    var planID: Int
    var planLength: Int
    /// While the engine cross-fades from the plan the voice played (this storage id; 0:
    /// none), the voice's state in that plan, rendered alongside and faded out.
    var fadingFrom = 0
    var oldMain: VoiceState
    var oldEcho: VoiceState
    /// False once the echo went unheard (volume 0): its place in the cycle ran on, its phase
    /// did not; it is derived again from the main voice when it is heard.
    var echoInStep = true

    /// A voice of no plan, for a pool's free slots.
    static var silent: PlayingVoice { PlayingVoice(main: VoiceState.idle, echo: VoiceState.idle, planID: 0, planLength: 1) }

    private init(main: VoiceState, echo: VoiceState, planID: Int, planLength: Int) {
        self.main = main
        self.echo = echo
        self.planID = planID
        self.planLength = planLength
        oldMain = main
        oldEcho = echo
    }

    /// The voice from the cycle's start, its echo `offset` ahead in the cycle and in phase.
    static func starting(plan: RenderPlan, map: FrequencyMap) -> PlayingVoice {
        PlayingVoice(
            main: VoiceState.starting(at: 0, plan: plan, map: map),
            echo: VoiceState.starting(at: plan.echoOffset, phase: ToneEngine.echoPhase(plan, from: 0, map: map), plan: plan, map: map),
            planID: plan.storageID, planLength: plan.cycleLength)
    }

    /// The voice from cycle sample `index` (JACK transport), its echo following.
    static func starting(at index: Int, plan: RenderPlan, map: FrequencyMap) -> PlayingVoice {
        let main = VoiceState.starting(at: index, plan: plan, map: map)
        return PlayingVoice(
            main: main, echo: ToneEngine.echoVoice(following: main, plan: plan, map: map), planID: plan.storageID,
            planLength: plan.cycleLength)
    }

    /// A new plan (another wave, curve or duration): the voice keeps its phase and its
    /// relative place in the cycle, so the new plan continues the sound rather than restarting
    /// it; with `fading`, its state in the old plan stays to be faded out.
    mutating func follow(_ plan: RenderPlan, map: FrequencyMap, fading: Bool) {
        if fading {
            oldMain = main
            oldEcho = echo
            fadingFrom = planID
        } else {
            fadingFrom = 0
        }
        let old = max(1, planLength)
        let index = min(plan.cycleLength - 1, Int(Double(main.cycleIndex) * Double(plan.cycleLength) / Double(old)))
        main = VoiceState(cycleIndex: index, integrator: main.integrator)
        // The echo keeps reading "offset ahead" of the main voice, under the new offset.
        echo = ToneEngine.echoVoice(following: main, plan: plan, map: map)
        planID = plan.storageID
        planLength = plan.cycleLength
    }

    /// `count` samples pass unrendered: the places in the cycle move on, the phases do not.
    mutating func skip(_ count: Int) {
        main.cycleIndex = (main.cycleIndex + count) % planLength
        echo.cycleIndex = (echo.cycleIndex + count) % planLength
    }
}

extension VoiceState {
    /// A voice that has never played (a free slot's).
    static var idle: VoiceState { VoiceState(cycleIndex: 0, integrator: PhaseIntegrator(firstFrequency: 0, halfSamplePeriod: 0)) }
}

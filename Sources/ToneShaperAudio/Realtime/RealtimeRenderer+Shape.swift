import ToneShaperDSP
import ToneShaperParameters

/// The one way the audio side is made from a shape, for the node (`EngineController`) and
/// every plugin (`InstrumentPlayer`): the plan built from its curve, and its values by row
/// (``ParameterValues``, as a plugin's controls carry them: the range and the echo as
/// played). The engine takes the rows it ramps, the MIDI performer the performance rows, so
/// a row added to the table reaches them with no change here.
extension RealtimeRenderer {
    public init(
        plan: RenderPlan, values: ParameterValues, controllers: MIDIControllerMap, playing: Bool = true, rampLength: Int,
        commands: consuming SPSCConsumer<TimedCommand>, handback: consuming SPSCProducer<AudioHandback>, parameters: AudioParameters
    ) {
        self.init(
            engine: ToneEngine(plan: plan, values: values, playing: playing, rampLength: rampLength),
            performer: MIDIPerformer(settings: PerformanceSettings(values: values), controllers: controllers, sampleRate: plan.sampleRate),
            commands: commands, handback: handback, parameters: parameters)
    }
}

extension ToneEngine {
    /// An engine playing `plan` with the ramped rows of `values` (the range played, the gains,
    /// the tuning).
    public init(plan: RenderPlan, values: ParameterValues, playing: Bool = true, rampLength: Int = 64) {
        self.init(
            plan: plan, minFrequency: values[.minFrequency], maxFrequency: values[.maxFrequency], amplitude: values[.amplitude],
            echoVolume: values[.echoVolume], tune: values[.tune], playing: playing, rampLength: rampLength)
    }
}

// Parameter ids travel to and from the audio thread (`EngineCommand.ramp`,
// `AudioSideChange`); the DSP module declares its own plain-data types the same way.
extension ParameterID: BitwiseCopyable {}

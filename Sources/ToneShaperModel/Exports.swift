// The model stands on the audio side's plain data (parameter ids, curve points, controller
// curves, plans) and on ToneShaperJSON's values; its users see both.
@_exported import ToneShaperAudio
@_exported import ToneShaperDSP
@_exported import ToneShaperJSON

// The model (the parameter table, the shape, documents, the change planner) is
// ToneShaperModel; the audio side (engine, voices, MIDI performance, the real-time channels,
// plan building) is ToneShaperAudio, with the render kernel's plain data (ToneShaperDSP)
// below it; JSONValue with its reader and writer is ToneShaperJSON. All of them build in
// Embedded Swift, for the plugins. Every user of ToneShaperCore sees them.
@_exported import ToneShaperAudio
@_exported import ToneShaperJSON
@_exported import ToneShaperModel

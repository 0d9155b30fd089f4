// The audio side (engine, voices, MIDI performance, the real-time channels, plan building)
// is ToneShaperAudio, with the render kernel's plain data (ToneShaperDSP) below it, and
// JSONValue with its reader and writer is ToneShaperJSON: all three build in Embedded Swift,
// for the LV2 plugin. Every user of ToneShaperCore sees them.
@_exported import ToneShaperAudio
@_exported import ToneShaperJSON

/// The parameters of playing a shape from MIDI and JACK transport: rows of the
/// same table, so they are document keys, command-line options, OSC addresses and `/state`
/// entries like every other. They change nothing in the curve: the controller sends them as
/// `.ramp` commands and the audio side's MIDI performer takes them at the next frame.
extension ParameterTable {
    static let performanceRows: [ParameterSpec] = [
        ParameterSpec(
            id: .instrument, symbol: "instrument", documentKey: "instrument", oscPath: "instrument", flag: "instrument",
            kind: .flag, defaultValue: .flag(false), unit: "", change: .ramp,
            controller: .toggle, presentation: .init(.playing, priority: 6, editorPlace: 10),
            help: "MIDI instrument mode: silent until a note, one voice per note; 0 = drone (notes transpose the loop)"),
        ParameterSpec(
            id: .rootNote, symbol: "root_note", documentKey: "rootNote", oscPath: "midi/root", flag: "root-note",
            kind: .integer(0...127), defaultValue: .integer(69), unit: "", change: .ramp,
            controller: .stepped, presentation: .init(.playing),
            help: "The MIDI note that plays the curve as drawn (69 = A4); other notes transpose by 2^((note-root)/12)"),
        ParameterSpec(
            id: .bendRange, symbol: "bend_range", documentKey: "bendRange", oscPath: "midi/bend-range", flag: "bend-range",
            kind: .real(0...48), defaultValue: .real(2), unit: "semitones", change: .ramp,
            controller: .linear, presentation: .init(.playing),
            help: "Pitch-bend range, up and down"),
        ParameterSpec(
            id: .voices, symbol: "voices", documentKey: "voices", oscPath: "voices", flag: "voices",
            kind: .integer(1...PerformanceSettings.maximumVoices), defaultValue: .integer(16), unit: "", change: .ramp,
            controller: .stepped, presentation: .init(.playing),
            help: "Instrument mode: notes sounding at once (1 = mono, legato); beyond, the oldest is stolen"),
        ParameterSpec(
            id: .release, symbol: "release", documentKey: "release", oscPath: "release", flag: "release",
            kind: .real(0...10_000), defaultValue: .real(30), unit: "ms", change: .ramp,
            controller: .linear, presentation: .init(.playing),
            help: "Instrument mode: fade after note-off"),
        ParameterSpec(
            id: .oneShot, symbol: "one_shot", documentKey: "oneShot", oscPath: "one-shot", flag: "one-shot",
            kind: .flag, defaultValue: .flag(false), unit: "", change: .ramp,
            controller: .toggle, presentation: .init(.playing),
            help: "Instrument mode: each note plays the cycle once instead of looping while held"),
        ParameterSpec(
            id: .transport, symbol: "transport", documentKey: "transport", oscPath: "transport", flag: "transport",
            kind: .flag, defaultValue: .flag(false), unit: "", change: .ramp,
            controller: .toggle, presentation: .init(.playing),
            help: "Follow JACK transport: silent while stopped, from the cycle's start when it rolls"),
        ParameterSpec(
            id: .beats, symbol: "beats", documentKey: "beats", oscPath: "beats", flag: "beats",
            kind: .real(0...1024), defaultValue: .real(0), unit: "beats", change: .ramp,
            controller: .linear,
            presentation: .init(.playing),
            help: "With transport and a timebase master: the cycle lasts this many beats, locked to bars (0 = keep the duration)"),
        ParameterSpec(
            id: .glide, symbol: "glide", addedIn: 6, documentKey: "glide", oscPath: "glide", flag: "glide",
            kind: .real(0...2), defaultValue: .real(0), unit: "s", change: .ramp,
            controller: .linear, presentation: .init(.playing),
            help:
                "Instrument mode: portamento; a note slides from the pitch of the last note on its channel to its own, linearly in semitones, over this many seconds (0 = off)"
        ),
    ]
}

import Foundation
import ToneShaperTestSupport

extension ArdourSession {
    /// What one note sounded like through Ardour's track.
    public struct Heard: Sendable {
        /// The median frequency over the note's clean stretches (Hz).
        public var frequency: Double
        /// The note's level (RMS over its longest stretch without a missed period).
        public var rms: Double
        /// The loudest sample anywhere.
        public var peak: Double
    }

    /// Plays `key` (velocity 100) for a second through the track's MIDI input, sent on JACK's
    /// timeline by the tests' own sender, and records the track's output with the tests' own
    /// recorder: the note is judged between the frames it went out at, on a loaded host over
    /// its clean stretches only (a take without enough of them is made again, saying so).
    public func play(key: UInt8, jack: PrivateJackServer, name: String) async throws -> Heard {
        let midi = try MIDISender(serverName: jack.name, name: "\(name)-seq", connectTo: midiInput)
        let recorder = try TimelineRecorder(serverName: jack.name, name: "\(name)-rec")
        try recorder.connect([audioOutput])
        let rate = Double(jack.rate)
        func frames(_ seconds: Double) -> UInt32 { UInt32(seconds * rate) }
        return try await retryingOnBusyHost("Ardour: note \(key)") { _ in
            let first = try await recorder.start()
            let tickets = [
                midi.send([[0x90, key, 100]], atFrame: first &+ frames(0.3)), midi.send([[0x80, key, 0]], atFrame: first &+ frames(1.3)),
            ]
            let sent = try await midi.delivered(tickets)
            let recording = try await recorder.finish(atFrame: sent[1] &+ frames(0.3))
            let samples = recording.samples
            let note = recording.indices(from: sent[0] &+ frames(0.1), to: sent[1] &- frames(0.05))
            let frequency = try RecordingAnalysis.medianFrequency(
                samples, sampleRate: rate, stretches: recording.trustedStretches(within: note), piece: Int(frames(0.1)), minimumPieces: 5)
            let sounding = recording.contiguousStretch(within: note)
            guard sounding.count > Int(frames(0.2)) else { throw HostTooBusy("no 0.2 s of the note without a missed period") }
            return Heard(frequency: frequency, rms: SignalAnalysis.rms(samples, range: sounding), peak: SignalAnalysis.peak(samples))
        }
    }
}

extension ArdourSession {
    /// What a round trip through Ardour gave: the values Ardour read back from the reopened
    /// session, and the same note heard before and after.
    public struct RoundTrip: Sendable {
        public var shown: String
        public var before: Heard
        public var valuesReopened: [String: Double]
        public var after: Heard
    }

    /// A constant 300 Hz shape (its range 300...300) with root 69, so note 81 plays 600 Hz, in
    /// instrument mode at amplitude 0.5: the values every plugin format's Ardour test sets by label.
    public static let roundTripValues: [(String, Double)] = [
        ("Instrument", 1), ("Root note", 69), ("Min frequency", 300), ("Max frequency", 300), ("Scale", 0), ("Amplitude", 0.5),
    ]

    /// A new session in `directory` playing the plugin (`format`, `pluginName`) with
    /// ``roundTripValues``, note 81 heard; saved and closed; opened again by a new Ardour,
    /// its values read back and note 81 heard again. `environment` adds to Ardour's.
    public static func roundTrip(
        jack: PrivateJackServer, directory: URL, format: Format, pluginName: String, environment: [String: String] = [:]
    ) async throws -> RoundTrip {
        // One Ardour round trip at a time: with two running at once (the LV2 and VST3 tests,
        // each on its own server), a reopened Ardour was seen to report its session ready with
        // no port on its server, and the note could not be sent (2 of 4 runs).
        await ArdourTurn.shared.take()
        defer { Task { await ArdourTurn.shared.give() } }
        let folder = directory.appendingPathComponent("session")
        let first = try ArdourSession(
            jack: jack, folder: folder, home: directory, create: true, format: format, pluginName: pluginName, values: roundTripValues,
            environment: environment)
        let before = try await first.play(key: 81, jack: jack, name: "ard1")
        try first.save()
        try first.quit()
        let second = try ArdourSession(
            jack: jack, folder: folder, home: directory, create: false, format: format, pluginName: pluginName, environment: environment)
        var values: [String: Double] = [:]
        for (label, _) in roundTripValues { values[label] = try second.value(label) }
        let after = try await second.play(key: 81, jack: jack, name: "ard2")
        try second.quit()
        return RoundTrip(shown: first.pluginShown, before: before, valuesReopened: values, after: after)
    }
}

/// Lets one Ardour round trip run at a time in the test process (waiting without holding a
/// thread of the cooperative pool, which a 2-core machine has two of).
actor ArdourTurn {
    static let shared = ArdourTurn()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        if !taken {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
    }
}

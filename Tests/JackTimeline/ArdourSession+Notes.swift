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

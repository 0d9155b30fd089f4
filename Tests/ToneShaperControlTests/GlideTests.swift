import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperAudio

/// `glide` (portamento): in instrument mode a note starts from the pitch of the last note
/// played on its channel and slides to its own, linearly in semitones, over exactly the
/// glide's seconds; 0 changes nothing.
@Suite("Glide")
struct GlideTests {
    static let rate = 48_000.0
    static let period = 64

    /// A steady 440 Hz sine (the root note A4 plays it as drawn), in instrument mode.
    static func shape(glide: Double, voices: Int = 16) throws -> ToneShape {
        var shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 440)], duration: 1,
            minFrequency: 20, maxFrequency: 2000, scale: .none, echoVolume: 0, amplitude: 0.5)
        shape.performance.instrument = true
        shape.performance.voices = voices
        return try shape.setting(.glide, to: .real(glide))
    }

    final class Player {
        let controller: EngineController
        var renderer: RealtimeRenderer
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: GlideTests.period)
        var output: [Float] = []

        init(_ shape: ToneShape) {
            controller = EngineController(shape: shape, sampleRate: GlideTests.rate)
            renderer = controller.makeRenderer(rampLength: GlideTests.period)
        }
        deinit { buffer.deallocate() }

        func play(_ events: [MIDIEvent] = [], periods: Int = 1) {
            for p in 0..<periods {
                (p == 0 ? events : []).withUnsafeBufferPointer { midi in
                    renderer.renderPeriod(
                        into: buffer, frames: GlideTests.period, clock: PeriodClock(startMicros: 0, microsPerFrame: 1e6 / GlideTests.rate),
                        midi: midi, transport: nil)
                }
                output += UnsafeBufferPointer(start: buffer, count: GlideTests.period)
            }
        }

        /// The voice of `note` that holds its key.
        func voice(_ note: UInt8) -> InstrumentVoice? {
            let pool = renderer.performer.pool
            return (0..<MIDIPerformer.poolSize).map { pool[$0] }.first { $0.note == note && $0.stage == .held }
        }
    }

    static func on(_ note: UInt8, channel: UInt8 = 0) -> MIDIEvent { MIDIEvent(frame: 0, size: 3, byte0: 0x90 | channel, byte1: note, byte2: 100) }
    static func off(_ note: UInt8, channel: UInt8 = 0) -> MIDIEvent { MIDIEvent(frame: 0, size: 3, byte0: 0x80 | channel, byte1: note, byte2: 0) }

    @Test func theRowIsATableRowLikeEveryOther() throws {
        let spec = ParameterTable.spec(.glide)
        #expect(spec.number == 20 && spec.symbol == "glide" && spec.documentKey == "glide" && spec.oscPath == "glide" && spec.flag == "glide")
        #expect(spec.kind.describeValues(unit: spec.unit) == "0...2 s" && spec.defaultValue == .real(0) && spec.isPerformance)
        #expect(spec.addedIn > ParameterTable.spec(.tune).addedIn, "a row added after tune's release")
        #expect(try GlideTests.shape(glide: 1.5).parameterValue(.glide) == .real(1.5))
        #expect(throws: ControlError.self) { try GlideTests.shape(glide: 2.5) }
    }

    /// The pitch moves by the same number of semitones every sample, and arrives exactly on
    /// the glide's last sample: checked on the voice, period by period.
    @Test func aNoteSlidesLinearlyInSemitonesOverExactlyTheGlide() throws {
        let glide = 0.2  // 9600 samples, 150 periods
        let player = Player(try GlideTests.shape(glide: glide))
        player.play([GlideTests.on(69)], periods: 20)
        player.play([GlideTests.off(69)], periods: 40)  // released and gone: its pitch stays the channel's last
        player.play([GlideTests.on(81)])
        let samples = Int(glide * GlideTests.rate)
        var played = GlideTests.period
        while played < samples {
            let voice = try #require(player.voice(81))
            let expected = 12 * Double(played) / Double(samples)
            #expect(abs(voice.currentSemitones - expected) < 1e-9, "after \(played) samples")
            #expect(abs(voice.ratio - FastPower.exp2(expected / 12)) < 1e-12)
            player.play()
            played += GlideTests.period
        }
        let arrived = try #require(player.voice(81))
        #expect(arrived.glideLeft == 0 && arrived.currentSemitones == 12 && arrived.ratio == 2, "an octave up, exactly")
    }

    /// What is heard: the new note begins at the old one's pitch, is half-way (in semitones)
    /// at half the glide, and plays its own pitch after it.
    @Test func theSoundBeginsAtTheLastNotesPitchAndEndsAtItsOwn() throws {
        let player = Player(try GlideTests.shape(glide: 0.5))
        player.play([GlideTests.on(69)], periods: 10)
        player.play([GlideTests.off(69)], periods: 40)
        let start = player.output.count
        player.play([GlideTests.on(81)], periods: Int(0.8 * GlideTests.rate) / GlideTests.period)
        func hz(at seconds: Double) throws -> Double {
            let centre = start + Int(seconds * GlideTests.rate)
            return try #require(
                SignalAnalysis.zeroCrossingFrequency(player.output, sampleRate: GlideTests.rate, range: (centre - 240)..<(centre + 240)))
        }
        let early = try hz(at: 0.01)
        let middle = try hz(at: 0.25)
        let late = try hz(at: 0.7)
        #expect(abs(12 * log2(early / 440)) < 0.5, "\(early) Hz 10 ms in: near the last note's 440 Hz")
        #expect(abs(12 * log2(middle / 440) - 6) < 0.3, "\(middle) Hz half-way: 6 semitones up")
        #expect(abs(late - 880) < 5, "\(late) Hz after the glide")
    }

    /// A note that follows one still gliding starts from where that one is now.
    @Test func aNoteFollowsAGlideFromWhereItIs() throws {
        let player = Player(try GlideTests.shape(glide: 0.1))
        player.play([GlideTests.on(69)], periods: 10)
        player.play([GlideTests.on(81)], periods: 25)  // 1600 of 4800 samples: 4 semitones up
        let halfway = try #require(player.voice(81)).currentSemitones
        #expect(abs(halfway - 4) < 1e-9)
        player.play([GlideTests.on(72)])
        let third = try #require(player.voice(72))
        #expect(abs(third.glideFrom - 4) < 1e-9 && third.semitones == 3, "from the glide's place, to C5")
        // Another channel has its own last note: none yet, so no glide there.
        player.play([GlideTests.on(60, channel: 1)])
        let other = try #require(player.voice(60))
        #expect(other.glideLeft == 0 && other.currentSemitones == -9)
    }

    /// Mono legato glides over the glide too; with glide 0 it keeps its 1 ms retune, and a
    /// new note starts at its own pitch at once (today's sound).
    @Test func zeroKeepsTodaysNotesAndLegato() throws {
        let player = Player(try GlideTests.shape(glide: 0, voices: 1))
        player.play([GlideTests.on(69)], periods: 4)
        player.play([GlideTests.on(81)])
        let legato = try #require(player.voice(81))
        #expect(legato.glideLeft == 0 && legato.ratioLeft == 0 && abs(legato.ratio - 2) < 1e-12, "the 1 ms legato retune, done within a period")
        let poly = Player(try GlideTests.shape(glide: 0))
        poly.play([GlideTests.on(69)], periods: 4)
        poly.play([GlideTests.on(76)])
        let note = try #require(poly.voice(76))
        #expect(note.glideLeft == 0 && note.ratio == FastPower.exp2(7.0 / 12), "at its own pitch from its first sample")

        let gliding = Player(try GlideTests.shape(glide: 0.05, voices: 1))
        gliding.play([GlideTests.on(69)], periods: 4)
        gliding.play([GlideTests.on(81)])
        let slid = try #require(gliding.voice(81))
        #expect(slid.glideLeft == Int(0.05 * GlideTests.rate) - GlideTests.period && slid.ratioLeft == 0)
    }
}

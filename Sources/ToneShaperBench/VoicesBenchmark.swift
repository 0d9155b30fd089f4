import ToneShaperAudio
import ToneShaperControl
import ToneShaperParameters

/// Instrument mode's cost: the renderer (as the JACK callback runs it, 64-frame periods)
/// with `voices` notes held, in ns per output sample per voice. The sine shape with echo
/// and sine scaling, the kernel's reference case.
func voicesNanoseconds(voices: Int, frames: Int, runs: Int, period: Int = 64) -> Double {
    var shape = benchShape(.sine, from: 30, to: 440)
    shape.performance.instrument = true
    shape.performance.voices = voices
    let controller = EngineController(shape: shape, sampleRate: 48000)
    var renderer = controller.makeRenderer(rampLength: period)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
    defer { buffer.deallocate() }
    let clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / 48000)
    // One note per voice, a semitone apart from C2 up, all held.
    let notes = (0..<voices).map { MIDIEvent(frame: 0, size: 3, byte0: 0x90, byte1: UInt8(36 + $0), byte2: 100) }
    notes.withUnsafeBufferPointer { midi in
        renderer.renderPeriod(into: buffer, frames: period, clock: clock, midi: midi, transport: nil)
    }
    // Checked before the timed closure captures the renderer: read after it, the captured
    // noncopyable renderer's performer crashed the benchmark (Swift 6.3.1, debug and release).
    precondition(renderer.performer.soundingCount == voices, "every note is held")
    let none = UnsafeBufferPointer<MIDIEvent>(start: nil, count: 0)
    let ns = nanosecondsPerSample(frames: frames, runs: runs, period: period) {
        renderer.renderPeriod(into: buffer, frames: period, clock: clock, midi: none, transport: nil)
        return buffer[0]
    }
    return ns / Double(voices)
}

/// The worst a MIDI flood can cost: a 64-frame period carrying the most events the renderer
/// reads (`maximumMIDIEvents`), all note-ons on every channel (each one starting or stealing a
/// voice, the costliest event), in instrument mode with 64 voices. Median µs per period.
func midiFloodMicroseconds(runs: Int, period: Int = 64) -> Double {
    var shape = benchShape(.sine, from: 30, to: 440)
    shape.performance.instrument = true
    shape.performance.voices = PerformanceSettings.maximumVoices
    let controller = EngineController(shape: shape, sampleRate: 48000)
    var renderer = controller.makeRenderer(rampLength: period)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: period)
    defer { buffer.deallocate() }
    let clock = PeriodClock(startMicros: 0, microsPerFrame: 1e6 / 48000)
    let events = (0..<RealtimeRenderer.maximumMIDIEvents).map {
        MIDIEvent(
            frame: $0 * period / RealtimeRenderer.maximumMIDIEvents, size: 3,
            byte0: 0x90 | UInt8($0 % 16), byte1: UInt8(($0 * 7) % 128), byte2: 100)
    }
    var times: [Double] = []
    events.withUnsafeBufferPointer { midi in
        for run in 0...max(runs, 50) {
            let start = ContinuousClock.now
            renderer.renderPeriod(into: buffer, frames: period, clock: clock, midi: midi, transport: nil)
            if run > 0 { times.append((ContinuousClock.now - start).nanoseconds / 1000) }
        }
    }
    blackHole(buffer[0])
    return median(times)
}

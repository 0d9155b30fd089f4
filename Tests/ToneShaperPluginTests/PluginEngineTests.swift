import Testing
import ToneShaperPlugin

/// What the core does for every shell: any block size, sliced with its MIDI events at their
/// frames; MIDI checked before it plays.
@Suite struct PluginEngineTests {
    /// A host with no worker and a log kept in memory.
    final class Host: PluginHost {
        var lines: [String] = []
        func scheduleWork(_ request: UnsafeRawBufferPointer) -> Bool { false }
        func log(_ level: PluginLogLevel, _ message: String) { lines.append(message) }
        func builtInDocument(_ index: Int) -> [UInt8]? { nil }
    }

    /// `frames` rendered in one call with the events (frame, bytes), by an engine whose
    /// largest block is `maximumBlock`.
    static func render(frames: Int, maximumBlock: Int, events: [(Int, [UInt8])]) -> [Float] {
        var engine = PluginEngine(sampleRate: 48_000, maximumBlock: maximumBlock, host: Host())
        defer { engine.free() }
        for (frame, bytes) in events { _ = bytes.withUnsafeBytes { engine.takeMIDI(frame: frame, bytes: $0) } }
        var out = [Float](repeating: .nan, count: frames)
        out.withUnsafeMutableBufferPointer { engine.render(into: $0.baseAddress!, frames: frames) }
        return out
    }

    /// A block four times the engine's largest, with a note and a bend late in it: the same
    /// samples as an engine that takes the block whole (each event in its own slice, at
    /// its frame, not at the end of the first slice).
    @Test func aLargeBlockIsSlicedWithItsEventsAtTheirFrames() {
        let events: [(Int, [UInt8])] = [(10, [0x90, 69, 100]), (200, [0x90, 81, 100]), (230, [0xE0, 0, 0x60])]
        let whole = Self.render(frames: 256, maximumBlock: 256, events: events)
        let sliced = Self.render(frames: 256, maximumBlock: 64, events: events)
        #expect(whole.allSatisfy(\.isFinite) && whole.contains { $0 != 0 })
        #expect(sliced == whole)
        let unmoved = Self.render(frames: 256, maximumBlock: 256, events: [(10, [0x90, 69, 100])])
        #expect(unmoved != whole, "the late events changed nothing: the test cannot tell")
    }

    @Test func midiIsCheckedBeforeItPlays() {
        var engine = PluginEngine(sampleRate: 48_000, maximumBlock: 64, host: Host())
        defer { engine.free() }
        func verdict(_ bytes: [UInt8]) -> HostMIDI.Verdict { bytes.withUnsafeBytes { engine.takeMIDI(frame: 0, bytes: $0) } }
        #expect(verdict([0x90, 60, 100]) == .taken)
        #expect(verdict([0xC0, 3]) == .taken)
        #expect(verdict([0xF8]) == .ignored)
        #expect(verdict([0xF0, 1, 2, 0xF7]) == .ignored)
        #expect(verdict([]) == .malformed)
        #expect(verdict([60, 100]) == .malformed)  // no status byte
        #expect(verdict([0x90, 60]) == .malformed)  // short
        #expect(verdict([0xC0, 3, 4]) == .malformed)  // long
        #expect(verdict([0x90, 0x80, 100]) == .malformed)  // a data byte of 0x80
    }
}

import Foundation
import ToneShaperTestSupport

/// What a ``TimelineRecorder`` recorded: the samples, and the JACK frame of every block.
///
/// Windows are asked for in frames of JACK's timeline (where an event was sent, where the
/// transport rolled) and answered in sample indices of the recording. A period the recorder
/// did not see (the server skipped it) is a gap: the frames on either side are not adjacent
/// in the recording, and ``contiguousStretch(within:)`` never spans one.
public struct TimelineRecording: Sendable {
    public let channels: [[Float]]
    public let sampleRate: Double
    public let blocks: [TimelineRecorder.Block]
    /// The recorder ran out of room before the end frame.
    public let full: Bool

    /// Per block: whether it repeats a neighbour sample for sample (``repeatedBlocks``).
    private let repeated: [Bool]
    /// The wall clock minus JACK's clock: the median of the blocks' readings (nil without
    /// blocks), so that a preemption between two clock reads does not move it.
    private let wallMinusJackMicros: Int64?

    public init(channels: [[Float]], sampleRate: Double, blocks: [TimelineRecorder.Block], full: Bool = false) {
        self.channels = channels
        self.sampleRate = sampleRate
        self.blocks = blocks
        self.full = full
        var repeated = [Bool](repeating: false, count: blocks.count)
        let samples = channels.first ?? []
        for k in blocks.indices.dropLast() {
            let (this, next) = (blocks[k], blocks[k + 1])
            guard this.count == next.count, next.index + next.count <= samples.count else { continue }
            let same = (0..<this.count).allSatisfy { samples[this.index + $0] == samples[next.index + $0] }
            let silent = (0..<this.count).allSatisfy { samples[this.index + $0] == 0 }
            if same && !silent {
                repeated[k] = true
                repeated[k + 1] = true
            }
        }
        self.repeated = repeated
        let offsets = blocks.map(\.wallMinusJackMicros).sorted()
        wallMinusJackMicros = offsets.isEmpty ? nil : offsets[offsets.count / 2]
    }

    /// The first channel.
    public var samples: [Float] { channels[0] }

    /// The frame of the recording's first sample.
    public var firstFrame: UInt32 { blocks.first?.frame ?? 0 }

    /// The frame just after the recording's last sample.
    public var endFrame: UInt32 { blocks.last.map { $0.frame &+ UInt32($0.count) } ?? 0 }

    /// `seconds` on the timeline, in frames.
    public func frames(_ seconds: Double) -> Int { Int((seconds * sampleRate).rounded()) }

    /// The frame `seconds` after (or before, when negative) `frame`.
    public func frame(_ frame: UInt32, plus seconds: Double) -> UInt32 {
        frame &+ UInt32(bitPattern: Int32(frames(seconds)))
    }

    /// The sample recorded at `frame`: nil before or after the recording, or in a period
    /// the recorder did not see.
    public func index(ofFrame frame: UInt32) -> Int? {
        guard let block = block(holding: frame) else { return nil }
        return block.index + TimelineRecorder.distance(from: block.frame, to: frame)
    }

    /// The sample recorded at `frame`, or ``HostTooBusy`` when the server skipped that
    /// period (or it lies outside the recording): a take that cannot be judged there.
    public func requireIndex(ofFrame frame: UInt32, _ what: String) throws -> Int {
        guard let index = index(ofFrame: frame) else {
            throw HostTooBusy("\(what) (frame \(frame)) lies in a period the recording does not hold (\(gaps.count) periods missed)")
        }
        return index
    }

    /// The frame at which a wall-clock time (CLOCK_REALTIME microseconds) falls, as JACK's
    /// clock places it seen from the period that holds `frame`: that period's start on
    /// JACK's clock (`jack_get_cycle_times`, plus the wall-minus-JACK offset, the median of
    /// the recording's readings) and its rate, carried forward. That is how a client that
    /// takes a time-tagged change in that period maps it onto a frame; on a loaded dummy
    /// server it is not 48,000 frames a second of wall clock. Nil when the period was not
    /// recorded.
    public func frame(atWallMicros micros: Int64, seenFrom frame: UInt32) -> Double? {
        guard let block = block(holding: frame), block.cycleEndMicros > block.cycleStartMicros, let offset = wallMinusJackMicros else {
            return nil
        }
        let start = Double(block.cycleStartMicros + offset)
        let microsPerFrame = Double(block.cycleEndMicros - block.cycleStartMicros) / Double(block.count)
        return Double(block.frame) + (Double(micros) - start) / microsPerFrame
    }

    /// The frame of the sample at `index`.
    public func frame(ofIndex index: Int) -> UInt32? {
        guard let block = blocks.last(where: { $0.index <= index }), index < block.index + block.count else { return nil }
        return block.frame &+ UInt32(index - block.index)
    }

    /// The samples recorded from frame `from` up to (not including) frame `to`, clipped to
    /// the recording; periods the recorder missed inside are simply absent.
    public func indices(from: UInt32, to: UInt32) -> Range<Int> {
        let lower = blocks.first { TimelineRecorder.distance(from: from, to: $0.frame &+ UInt32($0.count)) > 0 }
        let upper = blocks.last { TimelineRecorder.distance(from: $0.frame, to: to) > 0 }
        guard let lower, let upper else { return 0..<0 }
        let start = lower.index + max(0, TimelineRecorder.distance(from: lower.frame, to: from))
        let end = upper.index + min(upper.count, TimelineRecorder.distance(from: upper.frame, to: to))
        return start < end ? start..<end : start..<start
    }

    /// The samples from `seconds` after `frame` for `length` seconds.
    public func indices(after frame: UInt32, from seconds: Double, length: Double) -> Range<Int> {
        let start = self.frame(frame, plus: seconds)
        return indices(from: start, to: start &+ UInt32(frames(length)))
    }

    /// Indices where a period is missing just before: the recording jumps there.
    public var gaps: [Int] {
        zip(blocks, blocks.dropFirst()).compactMap { previous, next in
            next.frame == previous.frame &+ UInt32(previous.count) ? nil : next.index
        }
    }

    /// Blocks that hold the same samples as the block after them, both of each pair, as
    /// ranges. No sound this project makes repeats a whole period exactly; a reader that
    /// JACK2 (asynchronous mode) let run late reads a port buffer its writer has already
    /// filled for the next period, or not yet refilled (seen on a loaded host: a block
    /// exactly one period ahead of its place, no phase moved), and that is what such a pair
    /// is. Which of the two is the wrong one cannot be told: neither is judged.
    public var repeatedBlocks: [Range<Int>] {
        blocks.indices.filter { repeated[$0] }.map { blocks[$0].index..<(blocks[$0].index + blocks[$0].count) }
    }

    /// The runs of `range` that can be judged: no missing period inside, no repeated block.
    public func trustedStretches(within range: Range<Int>) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var current: Range<Int>?
        var previous: TimelineRecorder.Block?
        for (k, block) in blocks.enumerated() {
            let follows = previous.map { block.frame == $0.frame &+ UInt32($0.count) } ?? false
            if repeated[k] || !follows, let run = current {
                runs.append(run)
                current = nil
            }
            if !repeated[k] { current = (current?.lowerBound ?? block.index)..<(block.index + block.count) }
            previous = block
        }
        if let run = current { runs.append(run) }
        return runs.map { $0.clamped(to: range) }.filter { !$0.isEmpty }
    }

    /// The longest run of `range` that can be judged (``trustedStretches(within:)``).
    public func contiguousStretch(within range: Range<Int>) -> Range<Int> {
        trustedStretches(within: range).max { $0.count < $1.count } ?? range.lowerBound..<range.lowerBound
    }

    /// Whether the step into sample `index` can be judged: it and the sample before lie in
    /// one trusted run (no missing period between them, neither in a repeated block).
    public func stepIsTrusted(at index: Int) -> Bool {
        trustedStretches(within: (index - 1)..<(index + 1)).contains { $0.count == 2 }
    }

    /// The largest magnitude in `range`, repeated blocks left out.
    public func trustedPeak(in range: Range<Int>) -> Float {
        var peak: Float = 0
        for run in trustedStretches(within: range) {
            for i in run { peak = max(peak, abs(samples[i])) }
        }
        return peak
    }

    /// The stretches of blocks in which the transport rolled (`rolling` true) or stood, as
    /// sample ranges, in order.
    public func transportStretches(rolling: Bool) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start: Int?
        for block in blocks {
            if block.rolling == rolling {
                if start == nil { start = block.index }
            } else if let s = start {
                found.append(s..<block.index)
                start = nil
            }
        }
        if let s = start, let last = blocks.last { found.append(s..<(last.index + last.count)) }
        return found
    }

    /// Where the transport, rolling in both periods, did not move on by one period: the
    /// position jumped (a locate, or periods the server lost), which a follower of the
    /// transport treats as a relocation. Indices of the period after the jump.
    public var transportJumps: [Int] {
        zip(blocks, blocks.dropFirst()).compactMap { previous, next in
            previous.rolling && next.rolling && next.transportFrame != previous.transportFrame &+ UInt32(previous.count) ? next.index : nil
        }
    }

    /// Keeps the recording for a look after a failure: the first channel as raw 32-bit
    /// floats (`sox -t f32 -r RATE -c 1 FILE out.wav` plays it) and one line per block
    /// (index, frame, count, rolling, repeated). Returns a sentence saying where.
    public func keep(named name: String) -> String {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "toneshaper-take-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        let raw = samples.withUnsafeBufferPointer { Data(buffer: $0) }
        let lines = blocks.enumerated().map { k, b in "\(b.index) \(b.frame) \(b.count) \(b.rolling ? 1 : 0) \(repeated[k] ? 1 : 0)" }
        do {
            try raw.write(to: base.appendingPathExtension("f32"))
            try (lines.joined(separator: "\n") + "\n").write(to: base.appendingPathExtension("blocks"), atomically: true, encoding: .utf8)
            return
                "the take is kept in \(base.path).f32 (\(Int(sampleRate)) Hz, \(gaps.count) missed periods, \(repeatedBlocks.count) repeated) and .blocks"
        } catch {
            return "the take could not be kept: \(error)"
        }
    }

    private func block(holding frame: UInt32) -> TimelineRecorder.Block? {
        blocks.last { TimelineRecorder.distance(from: $0.frame, to: frame) >= 0 }.flatMap { block in
            TimelineRecorder.distance(from: block.frame, to: frame) < block.count ? block : nil
        }
    }
}

import ToneShaperModel

/// Renders a tone shape to samples with the live node's own engine (SPEC 11): a file is a
/// faithful recording of what the node plays, because it is the same code.
public enum OfflineRenderer {
    public enum Length: Sendable, Equatable {
        case cycles(Int)
        case seconds(Double)
    }

    /// Frames a render of `length` takes at `sampleRate` (Int.max when absurdly long: the
    /// caller refuses that with its own limit).
    public static func frameCount(of shape: ToneShape, length: Length, sampleRate: Double) -> Int {
        switch length {
        case .cycles(let n):
            let (frames, overflow) = n.multipliedReportingOverflow(by: max(1, Int(shape.duration * sampleRate)))
            return overflow ? Int.max : frames
        case .seconds(let s):
            let frames = (s * sampleRate).rounded()
            return frames.isFinite && frames < 9e18 ? max(0, Int(frames)) : Int.max
        }
    }

    /// Renders `frames` frames in blocks of up to `blockSize`: `fill` gets each block's
    /// length and a function that renders it into a buffer of the caller's (a file writer's
    /// slot, say), and the number of frames done once the block is rendered. `fill` may
    /// throw to stop early. The one render loop of every offline render.
    public static func render(
        _ shape: ToneShape, sampleRate: Double, frames: Int, blockSize: Int,
        fill: (_ count: Int, _ render: (UnsafeMutablePointer<Float>) -> Void) throws -> Void,
        progress: (_ done: Int) throws -> Void
    ) rethrows {
        let controller = EngineController(shape: shape, sampleRate: sampleRate)
        var engine = controller.makeEngine()
        var done = 0
        while done < frames {
            let count = min(blockSize, frames - done)
            try fill(count) { buffer in engine.render(into: buffer, count: count) }
            done += count
            try progress(done)
        }
        withExtendedLifetime(controller) {}
    }

    /// Renders `frames` frames in blocks of up to `blockSize`, handing each to `sink` with
    /// the number of frames done so far. `sink` may throw to stop early.
    public static func render(
        _ shape: ToneShape, sampleRate: Double, frames: Int, blockSize: Int = 8192,
        sink: (UnsafeBufferPointer<Float>, _ done: Int) throws -> Void
    ) rethrows {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: blockSize)
        defer { buffer.deallocate() }
        var done = 0
        try render(
            shape, sampleRate: sampleRate, frames: frames, blockSize: blockSize,
            fill: { count, render in
                render(buffer)
                done += count
                try sink(UnsafeBufferPointer(start: buffer, count: count), done)
            }, progress: { _ in })
    }

    /// Renders into an array (for tests and small jobs).
    public static func render(_ shape: ToneShape, sampleRate: Double, frames: Int) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(frames)
        render(shape, sampleRate: sampleRate, frames: frames) { block, _ in out.append(contentsOf: block) }
        return out
    }
}

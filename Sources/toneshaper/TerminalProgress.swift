#if canImport(Glibc)
    import Glibc
#endif

/// A progress bar on stderr for long renders. It draws only when stderr is a terminal
/// (never into a log or a pipe) and the job is long: more than 10 s of audio, or more
/// than 2 s of waiting. It redraws at most 10 times a second, so it costs nothing.
struct TerminalProgress {
    let total: Int
    let sampleRate: Double
    private let enabled: Bool
    private let start: Double
    private var lastDraw = 0.0
    private var drawn = false

    init(totalFrames: Int, sampleRate: Double) {
        total = max(1, totalFrames)
        self.sampleRate = sampleRate
        enabled = isatty(STDERR_FILENO) == 1
        start = TerminalProgress.now()
    }

    mutating func update(done: Int) {
        guard enabled else { return }
        let now = TerminalProgress.now()
        guard now - lastDraw >= 0.1 else { return }
        let longAudio = Double(total) / sampleRate > 10
        guard drawn || longAudio || now - start > 2 else { return }
        lastDraw = now
        drawn = true
        let fraction = min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = Int(fraction * 100)
        let line = "\r[\(bar)] \(percent)%  \(format(Double(done) / sampleRate)) / \(format(Double(total) / sampleRate)) s "
        StandardError.write(line)
    }

    /// Clears the bar, so the summary line starts on a clean line.
    mutating func finish() {
        guard drawn else { return }
        StandardError.write("\r\u{1B}[K")
        drawn = false
    }

    private func format(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

import ArgumentParser
import ToneShaperControl
import ToneShaperFiles
import ToneShaperModel

#if canImport(Glibc)
    import Glibc
#endif

/// `toneshaper render`: cycles of a document to an audio file, through the same engine
/// the live node plays with (SPEC 11).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a tone shape to an audio file (WAV, FLAC or Ogg/Vorbis).",
        discussion: """
            Uses the live node's own engine, so the file is what `toneshaper run` plays. \
            The file appears under its name only when complete; on any error nothing is left there.

            Examples:
              toneshaper render siren --output out/siren.wav --cycles 4
              toneshaper render my.toneshaper -o my.flac --seconds 60 --sample-format s16
              toneshaper render chirp -o chirp.ogg --sample-rate 44100
            """)

    @Argument(
        help: ArgumentHelp(
            "A .toneshaper file, or the name of a built-in or library tone shape.",
            discussion: "See `toneshaper presets` for the names.",
            valueName: "document"))
    var document: String

    @OptionGroup(title: "Tone-shape parameters (override the document's)")
    var parameters: ParameterOptions

    @OptionGroup(title: "Tuning")
    var tuning: TuningOptions

    @Option(name: [.short, .long], help: ArgumentHelp("The audio file to write; - for standard output (as sox).", valueName: "file"))
    var output: String

    @Option(help: "How many cycles of the shape to render (default 1).")
    var cycles: Int?

    @Option(help: "How many seconds to render, instead of whole cycles.")
    var seconds: Double?

    @Option(
        name: [.customShort("r"), .customShort("s"), .customLong("sample-rate")],
        help: "Sample rate in Hz, 8000...384000 (-r as in sox; -s kept for old scripts).")
    var sampleRate: Int = 48000

    @Option(
        help: ArgumentHelp(
            "File format. When left out it is taken from the output's extension (.wav, .flac, .ogg), else WAV.",
            valueName: "wav|flac|ogg"))
    var format: AudioContainer?

    @Option(
        name: .customLong("sample-format"),
        help: ArgumentHelp(
            "Sample format for WAV and FLAC (default: f32 for WAV, s24 for FLAC; FLAC has no float).",
            valueName: "s16|s24|f32"))
    var sampleFormat: SampleFormat?

    @Flag(
        help:
            "Return only once the file is safely on disk (fsync), as for a document. By default the file is put in place whole, but the system writes it to disk in its own time, as other renderers do."
    )
    var sync = false

    /// Past this a render is refused: a day of audio is already far beyond any sane job.
    static let maximumSeconds = 24.0 * 3600

    func validate() throws {
        if cycles != nil && seconds != nil {
            throw ValidationError("give either --cycles or --seconds, not both")
        }
        if let cycles, cycles < 1 { throw ValidationError("--cycles must be at least 1, got \(cycles)") }
        if let seconds, !(seconds > 0 && seconds.isFinite) {
            throw ValidationError("--seconds must be a number greater than 0, got \(seconds)")
        }
        if let seconds, seconds > RenderCommand.maximumSeconds {
            throw ValidationError("--seconds \(seconds) is longer than the \(Int(RenderCommand.maximumSeconds)) s a render may last")
        }
        guard (8000...384_000).contains(sampleRate) else {
            throw ValidationError("--sample-rate must be between 8000 and 384000 Hz, got \(sampleRate)")
        }
    }

    func run() throws {
        let loaded = try DocumentLibrary().load(document)
        for warning in ToneShapeDocument.warnings(for: loaded) { StandardError.line("toneshaper render: warning: \(document): \(warning)") }
        let shape = try tuning.apply(to: try parameters.apply(to: loaded))
        let fileFormat = try AudioFileFormat(container: try container(), sampleFormat: sampleFormat)
        let rate = Double(sampleRate)
        let length = try renderLength(of: shape)
        let frames = OfflineRenderer.frameCount(of: shape, length: length, sampleRate: rate)
        guard frames > 0 else { throw RenderFailure("--seconds \(seconds ?? 0) is shorter than one sample at \(sampleRate) Hz") }
        try checkSize(frames: frames, format: fileFormat)
        warnAboveNyquist(shape)

        // `-o -`: standard output, as sox takes it. The file is made whole first (in the
        // temporary directory) and then copied out: WAV and FLAC headers are completed at
        // the end by seeking back, which a pipe cannot do.
        let toStandardOutput = output == "-"
        if toStandardOutput && isatty(STDOUT_FILENO) != 0 {
            throw ValidationError(
                "-o - writes audio to standard output, which is a terminal here; redirect it (> out.wav) or pipe it (| play -t wav -)")
        }
        let path = toStandardOutput ? StandardOutputCopy.temporaryPath(extension: fileFormat.container.rawValue) : output

        var progress = TerminalProgress(totalFrames: frames, sampleRate: rate)
        do {
            // Cleared on every exit, so that an error message starts on a clean line.
            defer {
                progress.finish()
                InterruptCleanup.clear()
            }
            try FileRenderer.render(
                shape, to: path, format: fileFormat, sampleRate: sampleRate, frames: frames,
                durable: sync && !toStandardOutput, started: { InterruptCleanup.remove(onInterrupt: $0) },
                progress: { progress.update(done: $0) })
        }
        let summary = "\(describe(length, frames: frames, shape: shape)), \(sampleRate) Hz, \(fileFormat), mono"
        if toStandardOutput {
            try StandardOutputCopy.copy(path)
            StandardError.line("toneshaper render: wrote standard output: \(summary)")
        } else {
            print("Wrote \(output): \(summary)")
        }
    }

    /// --format, else the output's extension, else WAV. An extension that names no format
    /// is refused rather than silently given WAV data.
    private func container() throws -> AudioContainer {
        let implied = AudioContainer(path: output)
        if let format {
            if let implied, implied != format {
                StandardError.line(
                    "toneshaper render: warning: writing \(format.displayName) to \(output), whose extension suggests \(implied.displayName)")
            }
            return format
        }
        if let implied { return implied }
        let file = output.split(separator: "/").last.map(String.init) ?? output
        if let dot = file.lastIndex(of: "."), dot != file.startIndex {
            throw RenderFailure(
                "cannot tell the format from the extension \"\(file[dot...])\" of \(output); use .wav, .flac or .ogg, or give --format wav|flac|ogg")
        }
        return .wav
    }

    private func renderLength(of shape: ToneShape) throws -> OfflineRenderer.Length {
        if let seconds { return .seconds(seconds) }
        let count = cycles ?? 1
        // Checked in seconds first, so a huge --cycles cannot overflow the frame count.
        let total = Double(count) * shape.duration
        guard total <= RenderCommand.maximumSeconds else {
            throw RenderFailure(
                "\(count) cycles of \(shape.duration) s is \(Int(total)) s, longer than the \(Int(RenderCommand.maximumSeconds)) s a render may last; use fewer cycles, or `toneshaper run` to play it live"
            )
        }
        return .cycles(count)
    }

    /// WAV's sizes are 32-bit: past 4 GiB the header cannot describe the data.
    private func checkSize(frames: Int, format: AudioFileFormat) throws {
        guard format.container == .wav else { return }
        let bytesPerFrame: Int
        switch format.sampleFormat {
        case .s16?: bytesPerFrame = 2
        case .s24?: bytesPerFrame = 3
        default: bytesPerFrame = 4
        }
        let bytes = Double(frames) * Double(bytesPerFrame)
        if bytes > Double(UInt32.max) - 1024 {
            throw RenderFailure(
                "this render needs \(Int(bytes / 1_073_741_824)) GiB of samples, more than a WAV file can hold (4 GiB); use --format flac, a smaller sample format, or a shorter length"
            )
        }
    }

    private func warnAboveNyquist(_ shape: ToneShape) {
        let nyquist = Double(sampleRate) / 2
        guard let highest = shape.points.map(\.frequency).max(), highest > nyquist else { return }
        StandardError.line(
            "toneshaper render: warning: \(document) reaches \(hertz(highest)), above the Nyquist frequency \(hertz(nyquist)) of \(sampleRate) Hz; those frequencies are clamped to \(hertz(nyquist)) (use a higher --sample-rate to keep them)"
        )
    }

    private func describe(_ length: OfflineRenderer.Length, frames: Int, shape: ToneShape) -> String {
        let duration = seconds3(Double(frames) / Double(sampleRate))
        switch length {
        case .cycles(let n): return "\(duration) s (\(n) cycle\(n == 1 ? "" : "s") of \(seconds3(shape.duration)) s)"
        case .seconds: return "\(duration) s"
        }
    }
}

/// A render refused for a reason the user can fix; printed as is.
struct RenderFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension AudioContainer: ExpressibleByArgument {}
extension SampleFormat: ExpressibleByArgument {}

/// "1.5", "2", "0.125": seconds with up to three decimals, without trailing zeros.
func seconds3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let whole = thousandths / 1000
    let fraction = thousandths % 1000
    if fraction == 0 { return String(whole) }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 3 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits)"
}

/// "440 Hz", "1.5 kHz" style, but exact enough to compare: whole hertz below 10 kHz.
func hertz(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) Hz" : "\(seconds3(value)) Hz"
}

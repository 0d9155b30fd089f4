import Foundation
import Testing
import ToneShaperControl
import ToneShaperModel
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperFiles

/// A 440 Hz sine at half scale, 0.1 s at 48 kHz: a signal every format can carry.
private func testTone(frames: Int = 4800, rate: Double = 48000) -> [Float] {
    (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / rate)) }
}

private func maximumDifference(_ a: [Float], _ b: [Float]) -> Double {
    zip(a, b).map { abs(Double($0) - Double($1)) }.max() ?? 0
}

@Suite struct AudioFileRoundTripTests {
    /// Each lossless combination with its quantisation step.
    static let lossless: [(AudioContainer, SampleFormat, Double)] = [
        (.wav, .s16, 1.0 / 32768),
        (.wav, .s24, 1.0 / 8_388_608),
        (.wav, .f32, 0),
        (.flac, .s16, 1.0 / 32768),
        (.flac, .s24, 1.0 / 8_388_608),
    ]

    @Test(arguments: lossless)
    func losslessFormatsRoundTrip(container: AudioContainer, sampleFormat: SampleFormat, step: Double) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("tone.\(container.rawValue)")
        let tone = testTone()
        let format = try AudioFileFormat(container: container, sampleFormat: sampleFormat)
        try AudioFileWriter.write(to: path, format: format, sampleRate: 48000) { try $0.write(tone) }

        let read = try AudioFileReader.read(path: path)
        #expect(read.sampleRate == 48000)
        #expect(read.channels == 1)
        #expect(read.samples.count == tone.count)
        // Within one quantisation step: libsndfile scales by 2^(n-1) - 1 when writing and
        // by 2^(n-1) when reading, so the rounding error is not quite centred.
        #expect(maximumDifference(read.samples, tone) <= step + 1e-7)

        let info = try AudioFileReader.info(path: path)
        #expect(info.container == container)
        #expect(info.sampleFormat == sampleFormat)
        #expect(info.frames == tone.count)
        #expect(dir.contents() == ["tone.\(container.rawValue)"])
    }

    @Test func oggVorbisRoundTripKeepsPitchAndLevel() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("tone.ogg")
        let tone = testTone(frames: 48000)
        try AudioFileWriter.write(to: path, format: try AudioFileFormat(container: .ogg), sampleRate: 48000) { try $0.write(tone) }

        let read = try AudioFileReader.read(path: path)
        #expect(read.sampleRate == 48000)
        #expect(abs(read.samples.count - tone.count) < 2048)
        // Lossy: compare what a listener would, pitch and loudness, away from the edges.
        let middle = 4800..<43200
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(read.samples, sampleRate: 48000, range: middle))
        #expect(abs(frequency - 440) < 0.5)
        let rms = SignalAnalysis.rms(read.samples, range: middle)
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 0.02)
        #expect(try AudioFileReader.info(path: path).container == .ogg)
    }

    @Test func flacFloatIsRefusedWithAWayOut() throws {
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileFormat(container: .flac, sampleFormat: .f32)
        }
        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.description.contains("FLAC") == true)
        #expect(error?.description.contains("s24") == true)
    }

    @Test func vorbisRefusesASampleFormat() throws {
        #expect(throws: AudioFileError.self) { try AudioFileFormat(container: .ogg, sampleFormat: .s16) }
        #expect(try AudioFileFormat(container: .ogg).sampleFormat == nil)
        #expect(try AudioFileFormat(container: .flac).sampleFormat == .s24)
        #expect(try AudioFileFormat(container: .wav).sampleFormat == .f32)
    }

    @Test func formatFollowsTheExtension() {
        #expect(AudioContainer(path: "out/a.WAV") == .wav)
        #expect(AudioContainer(path: "a.flac") == .flac)
        #expect(AudioContainer(path: "x/y.z/a.ogg") == .ogg)
        #expect(AudioContainer(path: "x.d/noextension") == nil)
        #expect(AudioContainer(path: ".hidden") == nil)
        #expect(AudioContainer(path: "a.mp3") == nil)
    }

    @Test func missingDirectoryIsRefusedAndLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("missing/tone.wav")
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: path, format: try AudioFileFormat(container: .wav), sampleRate: 48000)
        }
        #expect(error?.kind == .cannotCreate)
        #expect(error?.description.contains("does not exist") == true)
        #expect(error?.description.contains(path) == true)
        #expect(dir.contents().isEmpty)
    }

    @Test func aDirectoryAsTargetIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("taken.wav"), withIntermediateDirectories: false)
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: dir.file("taken.wav"), format: try AudioFileFormat(container: .wav), sampleRate: 48000)
        }
        #expect(error?.description.contains("is a directory") == true)
        #expect(dir.contents() == ["taken.wav"])
    }

    @Test func unwritableDirectoryIsRefused() throws {
        // /proc refuses new files even to root, where file permissions would not.
        let error = #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: "/proc/toneshaper-test.wav", format: try AudioFileFormat(container: .wav), sampleRate: 48000)
        }
        #expect(error?.kind == .cannotCreate)
        #expect(!FileManager.default.fileExists(atPath: "/proc/toneshaper-test.wav"))
    }

    @Test func impossibleRateIsRefusedBeforeTouchingTheDisk() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: AudioFileError.self) {
            try AudioFileWriter(path: dir.file("a.wav"), format: try AudioFileFormat(container: .wav), sampleRate: 0)
        }
        #expect(dir.contents().isEmpty)
    }

    @Test func discardedWriterLeavesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try AudioFileWriter(path: dir.file("a.wav"), format: try AudioFileFormat(container: .wav), sampleRate: 48000)
        try writer.write(testTone())
        #expect(dir.contents().count == 1)  // the temporary, under another name
        #expect(!FileManager.default.fileExists(atPath: dir.file("a.wav")))
        writer.discard()
        #expect(dir.contents().isEmpty)
    }

    @Test func renderFailingMidwayLeavesNothingAndKeepsAnOldFile() throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let shape = ToneShape(points: [CurvePoint(time: 0, frequency: 440)], duration: 1, minFrequency: 440, maxFrequency: 440)
        let format = try AudioFileFormat(container: .wav)

        #expect(throws: Stop.self) {
            try FileRenderer.render(
                shape, to: dir.file("new.wav"), format: format, sampleRate: 48000, frames: 480_000,
                progress: { done in
                    if done > FileRenderer.blockSize { throw Stop() }
                })
        }
        #expect(dir.contents().isEmpty)

        // An older file under the name survives a failed render untouched.
        try dir.write("old.wav", "not audio, but mine")
        #expect(throws: Stop.self) {
            try FileRenderer.render(
                shape, to: dir.file("old.wav"), format: format, sampleRate: 48000, frames: 480_000, progress: { _ in throw Stop() })
        }
        #expect(dir.contents() == ["old.wav"])
        #expect(try String(contentsOfFile: dir.file("old.wav"), encoding: .utf8) == "not audio, but mine")
    }

    @Test func renderWritesExactlyTheEnginesSamples() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let shape = ToneShape(
            points: [CurvePoint(time: 0, frequency: 300), CurvePoint(time: 0.5, frequency: 900)],
            duration: 0.5, minFrequency: 300, maxFrequency: 900, wave: .triangle, scale: .twoStep,
            echoOffset: 0.1, echoVolume: 0.5)
        // Not a multiple of the block size, so the last block is short.
        let frames = 3 * FileRenderer.blockSize + 1234
        try FileRenderer.render(
            shape, to: dir.file("a.wav"), format: try AudioFileFormat(container: .wav),
            sampleRate: 48000, frames: frames)
        let read = try AudioFileReader.read(path: dir.file("a.wav"))
        #expect(read.samples == OfflineRenderer.render(shape, sampleRate: 48000, frames: frames))
    }
}

import Foundation
import Testing
import ToneShaperControl
import ToneShaperParameters
import ToneShaperTestSupport

@testable import ToneShaperFiles

/// The built-in library: every document loads, is well-formed, renders sanely, and the
/// set shows what the engine can do.
@Suite struct SessionsTests {
    static let library = DocumentLibrary(
        locations: LibraryLocations(
            userDirectory: "/nonexistent-toneshaper-user-library",
            sessionsDirectory: repositorySessions))
    static let entries = library.entries(.builtIn)

    @Test func everyDocumentLoadsAndIsWellFormed() throws {
        #expect(SessionsTests.entries.count >= 12)
        for entry in SessionsTests.entries {
            let shape = try entry.shape.get()
            #expect(shape.name == entry.name, "\(entry.name): the name key should match the file name")
            #expect(shape.description?.isEmpty == false, "\(entry.name): needs a description")
            for (i, point) in shape.points.enumerated() {
                #expect((0...shape.duration).contains(point.time), "\(entry.name): points[\(i)] time")
                #expect((shape.minFrequency...shape.maxFrequency).contains(point.frequency), "\(entry.name): points[\(i)] frequency")
                if i > 0 { #expect(point.time >= shape.points[i - 1].time, "\(entry.name): points sorted") }
            }
        }
    }

    @Test func theSetCoversTheEngine() throws {
        let shapes = SessionsTests.entries.compactMap { try? $0.shape.get() }
        let names = Set(SessionsTests.entries.map(\.name))
        #expect(names.contains("siren"))
        #expect(Set(shapes.map(\.scale)) == Set(ScaleType.allCases))
        #expect(Set(shapes.map(\.wave)) == Set(WaveType.allCases))
        #expect(shapes.contains { $0.fourierTerms == .nyquist && $0.wave.isFourier })
        #expect(shapes.contains { $0.fidelity <= 4 })
        #expect(shapes.contains { $0.echoOffset > 0 && $0.echoVolume > 0 })
    }

    /// One cycle of each at 48 kHz, streamed (the longest is ten minutes): finite, within
    /// the amplitude, and not silent.
    @Test(arguments: entries.map(\.name))
    func rendersOneCycleSanely(name: String) throws {
        let shape = try SessionsTests.library.load(name)
        let frames = OfflineRenderer.frameCount(of: shape, length: .cycles(1), sampleRate: 48000)
        var peak: Float = 0
        var finite = true
        OfflineRenderer.render(shape, sampleRate: 48000, frames: frames, blockSize: 65536) { block, _ in
            for x in block {
                if !x.isFinite { finite = false }
                peak = max(peak, abs(x))
            }
        }
        #expect(finite, "\(name) produced NaN or infinity")
        #expect(Double(peak) <= shape.amplitude + 1e-6, "\(name) peaks at \(peak) above its amplitude \(shape.amplitude)")
        #expect(Double(peak) > shape.amplitude * 0.1, "\(name) is nearly silent (peak \(peak))")
    }
}

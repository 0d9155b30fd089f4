import Testing
import ToneShaperPlugin

/// Where a sequence's events land in a block of 64 frames (``EventPlacement``, LV2's
/// atom:Sequence): in frames or in beats, each inside the block and never before the one
/// ahead of it; what had to be moved says so, the block's length is its last frame quietly.
@Suite struct EventPlacementTests {
    @Test func framesInOrderStayWhereTheyAre() {
        var placement = EventPlacement(frames: 64)
        #expect(placement.place(frames: 0) == (0, false))
        #expect(placement.place(frames: 10) == (10, false))
        #expect(placement.place(frames: 10) == (10, false))
        #expect(placement.place(frames: 63) == (63, false))
    }

    @Test func theBlocksLengthIsItsLastFrameQuietly() {
        var placement = EventPlacement(frames: 64)
        #expect(placement.place(frames: 64) == (63, false))
    }

    @Test func outsideTheBlockOrOutOfOrderIsMovedAndSaid() {
        var placement = EventPlacement(frames: 64)
        #expect(placement.place(frames: -5) == (0, true))
        #expect(placement.place(frames: 30) == (30, false))
        #expect(placement.place(frames: 20) == (30, true))  // before the previous one: at it
        #expect(placement.place(frames: 1000) == (63, true))
        #expect(placement.place(frames: Int64.max) == (63, true))
    }

    @Test func beatsAtTheTempoLandOnTheirFrame() {
        var placement = EventPlacement(frames: 256)
        let framesPerBeat = 24_000.0  // 120 bpm at 48 kHz
        #expect(placement.place(beats: 0, framesPerBeat: framesPerBeat) == (0, false))
        #expect(placement.place(beats: 100 / framesPerBeat, framesPerBeat: framesPerBeat) == (100, false))
        #expect(placement.place(beats: 1, framesPerBeat: framesPerBeat) == (255, true))
        #expect(placement.place(beats: .nan, framesPerBeat: framesPerBeat) == (255, true))
        #expect(!placement.placedWithoutTempo)
    }

    @Test func beatsWithoutATempoPlayAtTheStartAndAreSaid() {
        var placement = EventPlacement(frames: 64)
        #expect(placement.place(beats: 0, framesPerBeat: 0) == (0, false))
        #expect(!placement.placedWithoutTempo, "beat 0 is the block's start at any tempo")
        #expect(placement.place(beats: 0.5, framesPerBeat: 0) == (0, false))
        #expect(placement.placedWithoutTempo)
    }
}

/// A document a host keeps as text with its NUL (``DocumentText``, LV2's state): refused when
/// empty, too large or cut short; written with its NUL.
@Suite struct DocumentTextTests {
    static func refusal(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { raw in
            do throws(DocumentFile.Refusal) {
                _ = try DocumentText.document(raw.baseAddress!, size: raw.count)
                return nil
            } catch {
                return error.reason
            }
        }
    }

    @Test func aTerminatedDocumentIsReadWithoutItsNUL() {
        let text: [UInt8] = Array("{\"a\": 1}".utf8) + [0]
        let read = text.withUnsafeBytes { raw in try? Array(DocumentText.document(raw.baseAddress!, size: raw.count)) }
        #expect(read == Array("{\"a\": 1}".utf8))
    }

    @Test func emptyOrCutShortIsRefused() {
        #expect(DocumentTextTests.refusal([0]) == "is empty")
        #expect(DocumentTextTests.refusal(Array("{}".utf8)) == "does not end with its NUL (truncated?)")
    }

    @Test func writtenWithItsNUL() {
        let document = Array("{}".utf8)
        let stored = document.withUnsafeBytes { raw in
            DocumentText.withNUL(raw) { text, size in Array(UnsafeRawBufferPointer(start: text, count: size)) }
        }
        #expect(stored == [UInt8(ascii: "{"), UInt8(ascii: "}"), 0])
    }
}

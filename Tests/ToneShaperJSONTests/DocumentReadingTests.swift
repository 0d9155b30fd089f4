import Testing
import ToneShaperControl
import ToneShaperModel

/// A broken document's message, as the person who opens the file sees it: the file, what
/// is wrong, where, and the hint.
@Suite struct DocumentReadingTests {
    func problem(_ text: String) -> String {
        do {
            _ = try ToneShapeDocument.decode(text, source: "t.toneshaper")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func notJSONSaysWhatAndWhereAndGivesTheHint() {
        #expect(
            problem("{\"points\": [[0, 100]],\n \"duration\": 0.5,\n \"minFrequ")
                == "t.toneshaper: not valid JSON (the text ends where the closing '\"' of a string should follow at line 3, column 11 (byte 51)); "
                + "is the file truncated or not a .toneshaper document?")
        #expect(
            problem(#"{"points": [[0, 100]], "duration": 0.5, "duration": 1}"#)
                == "t.toneshaper: not valid JSON (the key \"duration\" appears twice in one object at line 1, column 41 (byte 40)); "
                + "is the file truncated or not a .toneshaper document?")
        #expect(problem(#"{"points": [[0, NaN]]}"#).hasPrefix("t.toneshaper: not valid JSON (NaN and Infinity are not JSON numbers at line 1"))
        #expect(problem(#"{"points": [[0, 1e999]]}"#).contains("the number is beyond the range of a double"))
    }

    @Test func aDocumentDeeperThanTheLimitIsRefusedAsJSON() {
        let deep =
            #"{"points": [[0, 100]], "duration": 1, "minFrequency": 0, "maxFrequency": 200, "x": "#
            + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(problem(deep).contains("arrays and objects are nested more than 64 deep"))
    }
}

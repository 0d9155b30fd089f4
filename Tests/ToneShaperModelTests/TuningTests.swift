import Testing
import ToneShaperModel
import ToneShaperParameters

/// Scala scales and keyboard mappings: the format's hard cases (written here from its
/// description), the errors that name the line, and the key tables they make.
@Suite struct TuningParsing {
    /// The cents of `ratio` (a/b), as a test computes them.
    static func cents(_ a: Double, _ b: Double) -> Double { 1200 * ParameterSpec.log2(a / b) }

    func scaleError(_ text: String) -> TuningError? {
        do {
            _ = try ScalaScale(parsing: text)
            return nil
        } catch { return error }
    }

    func mapError(_ text: String) -> TuningError? {
        do {
            _ = try KeyboardMapping(parsing: text)
            return nil
        } catch { return error }
    }

    // MARK: Scales

    /// Comments before, between and after everything, an empty description, text after the
    /// values, a whole-number ratio, negative cents, a blank line among the pitches, CRLF.
    @Test func readsTheFormatsHardCases() throws {
        let text = [
            "! hard.scl", "!", "", "! the description above is empty", " 7", "! the pitches:", " 100.0 cents, a semitone",
            "-5.5", "5/4 ! a just third", "", "3/2   fifth", "!", "701.955001 (text after the value)", "7/4", " 2",
            "! after the last pitch", "anything here is ignored",
        ].joined(separator: "\r\n")
        let scale = try ScalaScale(parsing: text)
        #expect(scale.description == "")
        #expect(scale.count == 7)
        #expect(scale.cents[0] == 100 && scale.cents[1] == -5.5)
        #expect(abs(scale.cents[2] - Self.cents(5, 4)) < 1e-9)
        #expect(abs(scale.cents[3] - Self.cents(3, 2)) < 1e-9)
        #expect(scale.cents[4] == 701.955001)
        #expect(abs(scale.cents[5] - Self.cents(7, 4)) < 1e-9)
        #expect(scale.period == 1200)  // "2" is 2/1
        // Degrees repeat by the period, below 0 too.
        #expect(scale.cents(ofDegree: 0) == 0 && scale.cents(ofDegree: 7) == 1200 && scale.cents(ofDegree: 8) == 1300)
        #expect(scale.cents(ofDegree: -7) == -1200 && scale.cents(ofDegree: -6) == -1100)
    }

    @Test func aDescriptionMayBeAnythingAndLineEndingsAnyKind() throws {
        let lf = try ScalaScale(parsing: "12-EDO, 5/4 in the description is text\n1\n2/1\n")
        #expect(lf.description == "12-EDO, 5/4 in the description is text" && lf.cents == [1200])
        let cr = try ScalaScale(parsing: "old Mac\r1\r1200.\r")
        #expect(cr.cents == [1200])
        // No newline at the end, and the unison itself listed as the period (a degenerate but legal scale).
        #expect(try ScalaScale(parsing: "x\n1\n1/1").cents == [0])
    }

    @Test func badPitchesAreRefusedNamingTheLine() {
        let zero = scaleError("! c\nd\n2\n0/1\n2/1\n")
        #expect(zero?.line == 4 && zero?.file == .scale && zero?.problem.contains("0/1") == true)
        #expect(scaleError("d\n2\n3/0\n2/1\n")?.line == 3)
        #expect(scaleError("d\n2\n-3/2\n2/1\n")?.line == 3)
        #expect(scaleError("d\n2\n3/2\nfifth\n")?.line == 4)
        #expect(scaleError("d\n2\n3/2\n1.2.3\n")?.line == 4)
        #expect(scaleError("d\n2\n3/2\n700,0\n")?.line == 4)
        let count = scaleError("d\n!\ntwelve\n")
        #expect(count?.line == 3 && count?.problem.contains("number of pitches") == true)
        #expect(scaleError("d\n0\n")?.line == 2)
        #expect(scaleError("d\n-3\n")?.line == 2)
        let short = scaleError("d\n3\n100.0\n2/1\n")
        #expect(short?.problem.contains("2 of the 3") == true)
        #expect(scaleError("")?.problem.contains("no description") == true)
        #expect(scaleError("! only comments\n!\n") != nil)
        #expect(scaleError("description only")?.line == 2)
        // What a message says: the kind of file, the line, what was expected.
        #expect(zero?.description.hasPrefix("scale, line 4: ") == true)
    }

    // MARK: Keyboard maps

    func entry(_ map: KeyboardMapping, _ key: Int) -> [Int]? { map.entry(ofKey: key).map { [$0.degree, $0.repetitions] } }

    static let whiteKeys = """
        ! white keys of a 7-note scale on C, black keys silent
        12
        0
        127
        60
        69
        440.0
        7
        ! the map
        0
        x
        1
        x
        2
        3
        x
        4
        x
        5
        x
        6
        """

    @Test func readsAMapWithUnmappedKeys() throws {
        let map = try KeyboardMapping(parsing: Self.whiteKeys)
        #expect(map.size == 12 && map.firstNote == 0 && map.lastNote == 127 && map.middleNote == 60)
        #expect(map.referenceNote == 69 && map.referenceFrequency == 440 && map.octaveDegree == 7)
        #expect(map.entries == [0, nil, 1, nil, 2, 3, nil, 4, nil, 5, nil, 6])
        #expect(entry(map, 60) == [0, 0])
        #expect(map.entry(ofKey: 61) == nil)
        #expect(entry(map, 71) == [6, 0])
        #expect(entry(map, 72) == [0, 1])
        #expect(entry(map, 59) == [6, -1])
    }

    @Test func mapSizeZeroIsLinearAndTextAfterValuesIsIgnored() throws {
        let map = try KeyboardMapping(parsing: "! linear\n0 ! size\n0\n127\n62 middle\n69\n432.0 Hz\n0\n")
        #expect(map.size == 0 && map.entries.isEmpty && map.middleNote == 62 && map.referenceFrequency == 432)
        #expect(entry(map, 50) == [-12, 0] && entry(map, 75) == [13, 0])
    }

    @Test func badMapsAreRefusedNamingTheLine() {
        let missing = mapError("! m\n12\n0\n127\n60\n69\n440.0\n12\n0\n1\n")
        #expect(missing?.file == .keyboardMap && missing?.line == 11 && missing?.problem.contains("entry 3 of the 12") == true)
        let frequency = mapError("0\n0\n127\n60\n69\nA440\n0\n")
        #expect(frequency?.line == 6 && frequency?.problem.contains("reference frequency") == true)
        #expect(mapError("0\n0\n127\n60\n69\n0.0\n0\n")?.line == 6)
        #expect(mapError("0\n0\n128\n60\n69\n440.0\n0\n")?.line == 3)
        #expect(mapError("many\n")?.line == 1)
        #expect(mapError("0\n0\n127\n60\n")?.problem.contains("reference note") == true)
        #expect(mapError("2\n0\n127\n60\n69\n440.0\n2\n0\ny\n")?.line == 9)
        #expect(mapError("2\n0\n127\n60\n69\n440.0\n2\n0\n\n1\n")?.line == 9)  // a blank line where an entry belongs
        #expect(mapError("2\n0\n127\n60\n69\n440.0\n2\nx\nx\n") != nil)  // nothing would play
        // The reference note must be a key the map plays.
        #expect(throws: TuningError.self) { try Tuning(scale: "d\n1\n2/1\n", keyboardMap: "2\n0\n127\n60\n61\n440.0\n1\n0\nx\n") }
    }

    // MARK: Key tables

    static func edo(_ n: Int) -> String {
        "\(n)-EDO\n\(n)\n" + (1...n).map { $0 == n ? "2/1" : "\(Double($0) * 1200 / Double(n))" }.joined(separator: "\n") + "\n"
    }

    /// 19-EDO with no map: root + 12 plays 12 of its steps; with a map of twelve keys
    /// whose formal octave is degree 19, it plays an octave.
    @Test func theIssuesTwoExamples() throws {
        let free = try Tuning(scale: Self.edo(19)).keyTuning(rootNote: 60)
        #expect(abs(free.semitones(of: 72, from: 60)! - 12 * 12.0 / 19) < 1e-12)
        #expect(abs(free.semitones(of: 61, from: 60)! - 12.0 / 19) < 1e-12)
        #expect(abs(free.semitones(of: 41, from: 60)! + 19 * 12.0 / 19) < 1e-12)
        let twelveKeys = "12\n0\n127\n60\n69\n440.0\n19\n" + [0, 2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 17].map(String.init).joined(separator: "\n")
        let mapped = try Tuning(scale: Self.edo(19), keyboardMap: twelveKeys).keyTuning(rootNote: 60)
        #expect(mapped.semitones(of: 72, from: 60)! == 12)
        #expect(mapped.semitones(of: 48, from: 60)! == -12)
        #expect(abs(mapped.semitones(of: 67, from: 60)! - 11 * 12.0 / 19) < 1e-12)
    }

    /// 12-EDO in cents gives exactly note - root, whatever the root: what makes a 12-EDO
    /// tuning sound sample for sample as no tuning.
    @Test func twelveEDOIsExactlyNoteMinusRoot() throws {
        let standardMap = "12\n0\n127\n60\n69\n440.0\n12\n" + (0..<12).map(String.init).joined(separator: "\n")
        for tuning in [try Tuning(scale: Self.edo(12)), try Tuning(scale: Self.edo(12), keyboardMap: standardMap)] {
            for root in [0, 60, 69, 127] {
                let table = tuning.keyTuning(rootNote: root)
                for key in 0..<128 { #expect(table.semitones(of: key, from: root) == Double(key - root)) }
            }
        }
    }

    @Test func frequenciesFollowTheReference() throws {
        let tuning = try Tuning(scale: Self.edo(12), keyboardMap: "0\n0\n127\n60\n69\n432.0\n0\n")
        let f = tuning.frequencies(rootNote: 69)
        #expect(f[69]! == 432)
        #expect(abs(f[81]! - 864) < 1e-9 && abs(f[60]! - 432 * FastPower.exp2(-9.0 / 12)) < 1e-9)
        // Unmapped keys have no frequency; their table pitch sits between their neighbours'.
        let white = try Tuning(
            scale: "major\n7\n9/8\n5/4\n4/3\n3/2\n5/3\n15/8\n2/1\n", keyboardMap: Self.whiteKeys)
        let frequencies = white.frequencies(rootNote: 60)
        #expect(frequencies[61] == nil && frequencies[60] != nil && frequencies[69]! == 440)
        #expect(abs(frequencies[72]! / frequencies[60]! - 2) < 1e-12)
        #expect(abs(frequencies[64]! / frequencies[60]! - 1.25) < 1e-12)
        let table = white.keyTuning(rootNote: 60)
        #expect(!table.mapped[61] && table.semitones[61] == (table.semitones[60] + table.semitones[62]) / 2)
        #expect(table.semitones(of: 61, from: 60) == nil)
    }
}

/// The document key `tuning`: absent, documents read and write as before; present, it is
/// kept (both texts as they were) and a change of it needs a new plan.
@Suite struct TuningDocuments {
    static let plain = #"{"points":[[0,100],[1,200]],"duration":1,"minFrequency":50,"maxFrequency":300}"#

    @Test func documentsWithoutItRoundTripByteForByte() throws {
        let once = ToneShapeDocument.encode(try ToneShapeDocument.decode(Self.plain, source: "d"))
        #expect(!String(decoding: once, as: UTF8.self).contains("tuning"))
        #expect(ToneShapeDocument.encode(try ToneShapeDocument.decode(once, source: "again")) == once)
        #expect(try ToneShapeDocument.decode(Self.plain, source: "d").tuning == nil)
    }

    @Test func aTuningIsKeptWithItsTexts() throws {
        var shape = try ToneShapeDocument.decode(Self.plain, source: "d")
        let scale = "! 19.scl\n19-EDO\n19\n" + (1...18).map { "\(Double($0) * 1200 / 19)" }.joined(separator: "\n") + "\n2/1\n"
        let map = "! m\n0\n0\n127\n60\n69\n440.0\n0\n"
        shape.tuning = try Tuning(scale: scale, keyboardMap: map)
        let bytes = ToneShapeDocument.encode(shape)
        let read = try ToneShapeDocument.decode(bytes, source: "t")
        #expect(read.tuning?.scaleText == scale && read.tuning?.keyboardMapText == map)
        #expect(read == shape)
        #expect(ToneShapeDocument.encode(read) == bytes)
        // Scale alone.
        shape.tuning = try Tuning(scale: scale)
        let alone = try ToneShapeDocument.decode(ToneShapeDocument.encode(shape), source: "t")
        #expect(alone.tuning?.keyboardMapText == nil && alone.tuning?.scale.count == 19)
        #expect(ToneShapeDocument.warnings(for: alone).isEmpty)
    }

    @Test func aBadTuningIsRefusedNamingTheKeyAndTheLine() {
        let text = #"{"points":[[0,100]],"duration":1,"minFrequency":50,"maxFrequency":300,"tuning":{"scale":"d\n2\n0/1\n2/1\n"}}"#
        #expect(throws: DocumentError.self) { try ToneShapeDocument.decode(text, source: "t") }
        do {
            _ = try ToneShapeDocument.decode(text, source: "t")
        } catch {
            #expect(error.key == "tuning" && error.problem.hasPrefix("scale, line 3:"))
        }
        let notObject = #"{"points":[[0,100]],"duration":1,"minFrequency":50,"maxFrequency":300,"tuning":"19edo.scl"}"#
        #expect(throws: DocumentError.self) { try ToneShapeDocument.decode(notObject, source: "t") }
    }

    @Test func aNewTuningOrRootNeedsANewPlan() throws {
        let plain = try ToneShapeDocument.decode(Self.plain, source: "d")
        var tuned = plain
        tuned.tuning = try Tuning(scale: "d\n1\n2/1\n")
        #expect(ShapeChange(from: plain, to: tuned).needsNewPlan)
        #expect(!ShapeChange(from: tuned, to: tuned).needsNewPlan)
        var moved = tuned
        moved.performance.rootNote = 60
        #expect(ShapeChange(from: tuned, to: moved).needsNewPlan)  // the scale sits on the root
        var plainMoved = plain
        plainMoved.performance.rootNote = 60
        #expect(!ShapeChange(from: plain, to: plainMoved).needsNewPlan)
        #expect(tuned.curve.tuning != nil && plain.curve.tuning == nil)
    }
}

import Testing
import ToneShaperModel
import ToneShaperPlugin

/// The tuning's summary the LV2 plugin sends its window (an atom:String): the text reads
/// back as what the window shows in process, and a text that is no summary is refused.
@Suite struct TuningSummaryTests {
    static func text(_ summary: TuningSummary) -> String {
        let bytes = summary.text
        #expect(bytes.last == 0, "the text ends with its NUL")
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    @Test func aScaleAndItsMapReadBackAsTheWindowShowsThem() throws {
        let tuning = try Tuning(scale: InstrumentTuningTests.nineteenEDO, keyboardMap: InstrumentTuningTests.twelveKeys)
        let summary = TuningSummary(tuning)
        #expect(summary.name == "19-EDO" && summary.cents.count == 19 && summary.mapSize == 12)
        let text = Self.text(summary)
        #expect(text.hasPrefix("! keyboard map: 12\n19-EDO\n19\n63.157895\n"), "\(text)")
        let read = try #require(TuningSummary(text: text))
        #expect(read.name == summary.name && read.mapSize == 12)
        #expect(zip(read.cents, summary.cents).allSatisfy { abs($0 - $1) < 1e-6 } && read.cents.count == 19)
        // A scale laid out from the root note, and negative or tiny degrees, with a point each;
        // the text names the scale as the window shows it.
        let plain = TuningSummary(try Tuning(scale: "\n3\n-0.00001\n-150.5\n2/1\n"))
        let plainText = Self.text(plain)
        #expect(plainText == "! keyboard map: none\n(a scale without a description)\n3\n-0.000010\n-150.500000\n1200.000000\n", "\(plainText)")
        let plainRead = try #require(TuningSummary(text: plainText))
        #expect(plainRead.name == plain.name && plainRead.mapSize == nil)
        #expect(zip(plainRead.cents, plain.cents).allSatisfy { abs($0 - $1) < 1e-6 } && plainRead.cents.count == 3)
        #expect(plain.name == "(a scale without a description)")
    }

    @Test func twelveTETIsTheEmptyTextAndOtherTextIsRefused() {
        #expect(TuningSummary(nil).text == [0])
        #expect(TuningSummary(text: "") == TuningSummary(nil))
        #expect(TuningSummary(nil).name == "12-TET" && TuningSummary(nil).cents.isEmpty)
        #expect(TuningSummary(text: "19-EDO\n1\n2/1\n") == nil, "no map line")
        #expect(TuningSummary(text: "! keyboard map: none\n19-EDO\nseveral\n") == nil, "no scale")
    }

    @Test func aScaleTooLongForTheMessageSendsTheDegreesThatFit() throws {
        let count = ScalaScale.maximumCount
        let scale = "huge\n\(count)\n" + (1...count).map { "\($0 * 100_000_000).0" }.joined(separator: "\n") + "\n"
        let summary = TuningSummary(try Tuning(scale: scale))
        let bytes = summary.text
        #expect(bytes.count <= TuningSummary.maximumBytes)
        let read = try #require(TuningSummary(text: String(decoding: bytes.dropLast(), as: UTF8.self)))
        #expect(read.cents.count > 100 && read.cents.count < count && read.cents == Array(summary.cents.prefix(read.cents.count)))
    }
}

import Testing
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// What the plugin and its editor window exchange (`PluginPoints`, `PointsMailbox`) and the
/// mixer strip's picture (`CurvePicture`), without a host.
@Suite struct PluginPointsTests {
    /// A curve of 100,000 points is sent as at most `maximumSent`, in time order, with its
    /// first and last points, its lowest and highest frequencies.
    @Test func aLongCurveIsReducedToItsOutline() {
        let count = 100_000
        let points = (0..<count).map { k in
            CurvePoint(time: Double(k) / Double(count), frequency: 300 + 200 * Double((k * 7919) % 1000) / 1000)
        }
        let reduced = PluginPoints.reduced(points)
        #expect(reduced.count <= PluginPoints.maximumSent)
        #expect(reduced.first == points.first && reduced.last == points.last)
        #expect(zip(reduced, reduced.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(reduced.map(\.frequency).min() == points.map(\.frequency).min())
        #expect(reduced.map(\.frequency).max() == points.map(\.frequency).max())
        let few = Array(points.prefix(10))
        #expect(PluginPoints.reduced(few) == few)
    }

    /// The flat list is checked as a document's points are.
    @Test func pointsAreCheckedAsADocumentsAre() {
        func read(_ numbers: [Double], duration: Double = 1) -> [CurvePoint]? {
            numbers.withUnsafeBufferPointer { PluginPoints.points(flat: $0, duration: duration) }
        }
        #expect(read([0, 300, 0.5, 600]) == [CurvePoint(time: 0, frequency: 300), CurvePoint(time: 0.5, frequency: 600)])
        #expect(read([]) == nil)
        #expect(read([0, 300, 0.5]) == nil, "odd")
        #expect(read([0, .nan]) == nil)
        #expect(read([.infinity, 300]) == nil)
        #expect(read([0.5, 300, 0.25, 300]) == nil, "out of order")
        #expect(read([2, 300]) == nil, "beyond the cycle")
        #expect(read([0, -1]) == nil)
        #expect(read([0, 1e9]) == nil)
    }

    /// A side finds the other at work and does not wait: the writer replaces what was not
    /// read yet, not what is being read.
    @Test func theMailboxHandsOverWithoutWaiting() {
        let box = PointsMailbox.make()
        defer { PointsMailbox.destroy(box) }
        let emptyRead = box.pointee.beginRead()
        #expect(!emptyRead, "empty")
        let firstFill = box.pointee.beginFill()
        #expect(firstFill)
        box.pointee.numbers[0] = 1
        box.pointee.numbers[1] = 2
        box.pointee.endFill(count: 2)
        let refill = box.pointee.beginFill()
        #expect(refill, "an unread list is replaced")
        box.pointee.numbers[0] = 3
        box.pointee.endFill(count: 2)
        let read = box.pointee.beginRead()
        let count = box.pointee.count
        let number = box.pointee.numbers[0]
        #expect(read && count == 2 && number == 3)
        let fillWhileRead = box.pointee.beginFill()
        #expect(!fillWhileRead, "not while it is read")
        box.pointee.endRead(taken: false)
        let again = box.pointee.beginRead()
        #expect(again, "a list left for later is there again")
        box.pointee.endRead(taken: true)
        let emptied = box.pointee.beginRead()
        #expect(!emptied)
        let listeningBefore = box.pointee.isListening
        box.pointee.listen()
        let listeningAfter = box.pointee.isListening
        #expect(!listeningBefore && listeningAfter)
    }

    /// The editor's points become the shape's, drawn over the range played, with a new plan.
    @Test func theBuilderTakesNewPointsWithAPlan() {
        var shape = ToneShape.defaultShape
        shape.minFrequency = 300
        shape.maxFrequency = 600
        var builder = InstrumentBuilder(shape: InstrumentShape(shape), sampleRate: 48_000)
        _ = builder.firstPlan()
        let new = [CurvePoint(time: 0, frequency: 600)]
        let answer = builder.setPoints(new)
        if case .plan = answer {} else { Issue.record("a points change hands back a plan") }
        let played = builder.shape.playedPoints
        #expect(played == new)
    }

    /// The picture holds the curve's color in every column, nothing outside the picture asked.
    @Test func thePictureDrawsTheCurveInEveryColumn() {
        let picture = CurvePicture()
        defer { picture.free() }
        let pixels = picture.draw(InstrumentShape(ToneShape.defaultShape), width: 120, height: 48)
        for x in 0..<120 {
            #expect((0..<48).contains { pixels[$0 * 120 + x] == 0xFF5A_CCF2 }, "column \(x)")
        }
        let large = picture.draw(InstrumentShape(ToneShape.defaultShape), width: 10_000, height: 10_000)
        #expect(large == picture.pixels, "a picture larger than the maximum is drawn at the maximum")
    }
}

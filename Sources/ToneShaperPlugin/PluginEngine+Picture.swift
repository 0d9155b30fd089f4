import ToneShaperModel
import ToneShaperParameters

/// A small picture of the curve as it plays, for a host's mixer strip (Ardour's inline
/// display): time across, a logarithmic frequency axis over the range played, drawn by the
/// plugin itself into pixels the caller allocated beforehand, with no allocation and no
/// drawing library (a plugin's shared object links none).
public struct CurvePicture {
    /// The largest picture drawn; a host asking for more gets this.
    public static let maximumWidth = 256
    public static let maximumHeight = 256

    /// The pixels (32-bit ARGB, premultiplied, as cairo's image surfaces hold them) and the
    /// per-column scratch, allocated once.
    public let pixels: UnsafeMutablePointer<UInt32>
    private let low: UnsafeMutablePointer<Double>
    private let high: UnsafeMutablePointer<Double>

    public init() {
        pixels = .allocate(capacity: CurvePicture.maximumWidth * CurvePicture.maximumHeight)
        low = .allocate(capacity: CurvePicture.maximumWidth)
        high = .allocate(capacity: CurvePicture.maximumWidth)
    }

    public func free() {
        pixels.deallocate()
        low.deallocate()
        high.deallocate()
    }

    static let background: UInt32 = 0xFF1C_1F24
    static let grid: UInt32 = 0xFF2C_3038
    static let curve: UInt32 = 0xFF5A_CCF2

    /// Draws `shape`'s curve into `width` x `height` pixels (each at most the maximum) and
    /// returns them. Each column holds the lowest and highest frequency the curve takes
    /// there (segments between points interpolated), joined to its neighbour.
    public func draw(_ shape: InstrumentShape, width: Int, height: Int) -> UnsafeMutablePointer<UInt32> {
        let w = min(max(width, 1), CurvePicture.maximumWidth)
        let h = min(max(height, 1), CurvePicture.maximumHeight)
        for i in 0..<(w * h) { pixels[i] = CurvePicture.background }
        for k in 1..<4 { for x in 0..<w { pixels[(h * k / 4) * w + x] = CurvePicture.grid } }
        for c in 0..<w {
            low[c] = .infinity
            high[c] = -.infinity
        }
        let duration = max(shape.value(.duration), 1e-9)
        let played = shape.playedRange
        let drawn = shape.drawnRange
        let slope = drawn.high > drawn.low ? (played.high - played.low) / (drawn.high - drawn.low) : 0
        func heard(_ f: Double) -> Double { drawn.high > drawn.low ? played.low + (f - drawn.low) * slope : played.low }
        var bottom = max(played.low, 1)
        var top = max(played.high, 1)
        if top <= bottom * 1.0001 {
            bottom /= 2
            top *= 2
        }
        let logBottom = CurvePicture.log2(bottom)
        let span = CurvePicture.log2(top) - logBottom
        func mark(_ c: Int, _ f: Double) {
            if f < low[c] { low[c] = f }
            if f > high[c] { high[c] = f }
        }
        let points = shape.points
        let perSecond = Double(w) / duration
        func column(_ t: Double) -> Int { min(max(Int(t * perSecond), 0), w - 1) }
        guard let first = points.first else { return pixels }
        // Before the first point and after the last, the curve holds their frequencies.
        for c in 0...column(first.time) { mark(c, heard(first.frequency)) }
        var previous = first
        for point in points.dropFirst() {
            let c0 = column(previous.time)
            let c1 = column(point.time)
            let f0 = heard(previous.frequency)
            let f1 = heard(point.frequency)
            if c1 <= c0 {
                mark(c1, f1)
            } else {
                for c in c0...c1 { mark(c, f0 + (f1 - f0) * Double(c - c0) / Double(c1 - c0)) }
            }
            previous = point
        }
        for c in column(previous.time)..<w { mark(c, heard(previous.frequency)) }
        func y(_ f: Double) -> Int {
            let p = span > 0 ? (CurvePicture.log2(min(max(f, bottom), top)) - logBottom) / span : 0.5
            return min(max(Int((1 - p) * Double(h - 1)), 0), h - 1)
        }
        var last: (top: Int, bottom: Int)?
        for c in 0..<w where low[c] <= high[c] {
            let yTop = y(high[c])
            let yBottom = y(low[c])
            let from = max(min(yTop, last?.bottom ?? yTop) - 1, 0)
            let to = min(max(yBottom, last?.top ?? yBottom) + 1, h - 1)
            for row in from...to { pixels[row * w + c] = CurvePicture.curve }
            last = (yTop, yBottom)
        }
        return pixels
    }

    /// log2 for the picture's axis: the exponent and a short series for the significand
    /// (a pixel's accuracy; the plugin links no libm).
    static func log2(_ x: Double) -> Double {
        let m = x.significand
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        return Double(x.exponent) + 2 * z * (1 + z2 / 3 + z2 * z2 / 5 + z2 * z2 * z2 / 7) / 0.693_147_180_559_945_3
    }
}

extension PluginEngine {
    /// Off the audio thread (the host's call for the picture): the curve as it plays now,
    /// drawn into `picture`'s pixels.
    public func drawCurve(into picture: CurvePicture, width: Int, height: Int) -> UnsafeMutablePointer<UInt32> {
        BuilderSide.with(side) { side in picture.draw(side.builder.shape, width: width, height: height) }
    }
}

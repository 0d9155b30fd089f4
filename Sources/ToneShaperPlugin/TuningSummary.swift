import Synchronization
import ToneShaperModel

/// What an editor window shows of the tuning playing: the scale's description line, its
/// degrees in cents, and the keyboard map's size. In process (CLAP, VST3) the window makes
/// it from the ``Tuning`` itself; LV2's window, in another process, reads it from ``text``,
/// which the plugin sends as an atom:String (a patch:Set of `urn:toneshaper:tuning`).
///
/// The text is a Scala scale (`.scl`) in cents, led by a comment that names the map:
/// `! keyboard map: 12` (or `none`), the ``name``, the count, one degree a line. A
/// Scala file rather than a format of its own: the window reads it with the scale's own
/// reader, and a person reading the host's messages reads a familiar file. 12-TET (no
/// tuning) is the empty text.
public struct TuningSummary: Equatable, Sendable {
    /// The scale's description line ("12-TET" without a tuning).
    public var name: String
    /// The degrees in cents above the unison, the period last (none without a tuning).
    public var cents: [Double]
    /// The keyboard map's size (nil: none, the scale laid out from the root note).
    public var mapSize: Int?

    /// The most bytes of ``text``, its NUL included: within the notify port's 64 KiB with
    /// the message's headers. A scale too long for it (thousands of degrees of absurd
    /// sizes) is sent with the degrees that fit.
    public static var maximumBytes: Int { 60_000 }

    public init(_ tuning: Tuning?) {
        let description = tuning?.scale.description ?? "12-TET"
        name = tuning != nil && description.isEmpty ? "(a scale without a description)" : description
        cents = tuning?.scale.cents ?? []
        mapSize = tuning?.mapping.map { $0.size }
    }

    /// Reads ``text`` (without its NUL); nil when it is no such summary.
    public init?(text: String) {
        guard !text.isEmpty else {
            self.init(nil)
            return
        }
        let prefix = "! keyboard map: "
        guard let first = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).first,
            first.starts(with: prefix.utf8), let scale = try? ScalaScale(parsing: text)
        else { return nil }
        let map = String(decoding: first.dropFirst(prefix.utf8.count), as: UTF8.self)
        self.init(nil)
        name = scale.description.isEmpty ? "(a scale without a description)" : scale.description
        cents = scale.cents
        mapSize = map == "none" ? nil : Int(map)
    }

    /// The summary as UTF-8 text with its NUL, at most ``maximumBytes`` (see the type).
    public var text: [UInt8] {
        guard !cents.isEmpty else { return [0] }
        let head = Array(("! keyboard map: " + (mapSize.map { String($0) } ?? "none") + "\n").utf8)
        // The description is one line: a line break in it would end it early.
        let description = Array(name.utf8.prefix(1000)).map { $0 == 0x0A || $0 == 0x0D || $0 == 0 ? 0x20 : $0 }
        var degrees: [UInt8] = []
        var fitting = 0
        for c in cents {
            let line = Array((TuningSummary.centsText(c) + "\n").utf8)
            guard head.count + description.count + 8 + degrees.count + line.count < TuningSummary.maximumBytes else { break }
            degrees += line
            fitting += 1
        }
        return head + description + Array(("\n" + String(fitting) + "\n").utf8) + degrees + [0]
    }

    /// Cents with six decimals and always a point (Scala reads a number without one as a ratio).
    static func centsText(_ cents: Double) -> String {
        let micro = Int64((min(abs(cents), 1e12) * 1e6).rounded())
        let fraction = String(micro % 1_000_000)
        return (cents < 0 ? "-" : "") + String(micro / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// A hand-over of one text (a ``TuningSummary/text``) from the work thread to the audio
/// thread, as ``PointsMailbox`` hands over the curve: a buffer allocated once and a state
/// word, each side's turn a compare-and-exchange; the audio thread never waits (it tries
/// again at its next block) and only copies the bytes out. It lives at a fixed address.
public struct TextMailbox: ~Copyable {
    public let bytes: UnsafeMutableRawPointer
    /// The text's length with its NUL (valid between `beginRead` and `endRead`).
    public private(set) var count = 0
    /// 0 empty, 1 being filled, 2 full, 3 being read.
    private let state = Atomic<UInt32>(0)

    private init() { bytes = .allocate(byteCount: TuningSummary.maximumBytes, alignment: 8) }

    public static func make() -> UnsafeMutablePointer<TextMailbox> {
        let box = UnsafeMutablePointer<TextMailbox>.allocate(capacity: 1)
        box.initialize(to: TextMailbox())
        return box
    }

    public static func destroy(_ box: UnsafeMutablePointer<TextMailbox>) {
        box.pointee.bytes.deallocate()
        box.deinitialize(count: 1)
        box.deallocate()
    }

    /// Off the audio thread: `text` (at most ``TuningSummary/maximumBytes``) replaces any not
    /// read yet; waits while the audio thread reads (a bounded copy).
    public mutating func fill(with text: [UInt8]) {
        while !(state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
            || state.compareExchange(expected: 2, desired: 1, ordering: .acquiring).exchanged)
        {}
        let length = min(text.count, TuningSummary.maximumBytes)
        let destination = bytes
        text.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: length) }
        count = length
        state.store(2, ordering: .releasing)
    }

    /// The text waiting, handed to `write` (bytes, count); kept for a later block when
    /// `write` returns false (no room).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func send(_ write: (UnsafeRawPointer, Int) -> Bool) {
        guard state.compareExchange(expected: 2, desired: 3, ordering: .acquiring).exchanged else { return }
        state.store(write(bytes, count) ? 0 : 2, ordering: .releasing)
    }
}

extension PluginEngine {
    /// Off the audio thread: the tuning playing, summed up (``TuningSummary/text``) into the
    /// relay's `tuningOutbox`, for the audio thread to send to an editor window, when one
    /// listens (`always`: it asked just now).
    public func sendTuning(to relay: CurveRelay, always: Bool = false) {
        guard always || relay.outbox.pointee.isListening else { return }
        relay.tuningOutbox.pointee.fill(with: TuningSummary(tuning()).text)
    }
}

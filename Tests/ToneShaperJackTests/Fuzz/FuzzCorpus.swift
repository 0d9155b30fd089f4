import Foundation
import ToneShaperTestSupport

/// A deterministic corpus of OSC packets for fuzzing the node: mostly hostile (wrong arity,
/// wrong types, NaN and infinities, out-of-range, subnormal and huge values, unknown
/// addresses, truncated and garbage packets, oversized strings and blobs, nested bundles,
/// time tags far in the past and future), with valid changes mixed in whose effect the
/// corpus tracks, so that the node's final state can be predicted exactly.
struct FuzzCorpus {
    /// What the valid messages alone set, keyed by /state key.
    private(set) var expected: [String: Double] = [:]
    private(set) var expectedNames: [String: String] = [:]
    private(set) var validCount = 0
    private var rng: SplitMix64
    let prefix: String
    /// Valid amplitudes stay at or below this, so the recording can be held to it.
    static let amplitudeCeiling = 0.5

    init(seed: UInt64, prefix: String = "/toneshaper") {
        rng = SplitMix64(seed: seed)
        self.prefix = prefix
    }

    enum Kind: CaseIterable { case valid, wrongArity, wrongType, badNumber, unknownAddress, truncated, garbage, oversized, bundle }

    /// The next packet and whether it is a valid, state-changing message.
    mutating func next() -> (packet: [UInt8], valid: Bool) {
        let roll = rng.below(100)
        switch roll {
        case 0..<12: return (validChange(), true)
        case 12..<24: return (wrongArity(), false)
        case 24..<38: return (wrongType(), false)
        case 38..<56: return (badNumber(), false)
        case 56..<66: return (unknownAddress(), false)
        case 66..<74: return (truncated(), false)
        case 74..<82: return (garbage(), false)
        case 82..<88: return (oversized(), false)
        default: return (hostileBundle(), false)
        }
    }

    // MARK: Valid changes (ramped values only: they never wait on a plan, so every one lands)

    private mutating func validChange() -> [UInt8] {
        validCount += 1
        switch rng.below(4) {
        case 0:
            let a = Double(rng.below(1001)) / 1000 * FuzzCorpus.amplitudeCeiling
            expected["amplitude"] = a
            return rng.below(2) == 0
                ? OSCPacket.message(prefix + "/amplitude", [.float(Float(a))])
                : OSCPacket.message(prefix + "/amplitude", [.double(a)])
        case 1:
            let e = Double(rng.below(101)) / 100
            expected["echo/volume"] = e
            return OSCPacket.message(prefix + "/echo/volume", [.float(Float(e))])
        case 2:
            let lo = Double(50 + rng.below(400))
            let hi = lo + Double(rng.below(2000))
            expected["frequency/min"] = lo
            expected["frequency/max"] = hi
            return OSCPacket.message(prefix + "/frequency/range", [.int(Int32(lo)), .float(Float(hi))])
        default:
            let db = -Double(rng.below(60)) - 6.0206  // <= -6 dB keeps it under the ceiling
            let linear = pow(10, db / 20)
            expected["amplitude"] = Double(Float(linear))
            return OSCPacket.message(prefix + "/amplitude/db", [.float(Float(db))])
        }
    }

    // MARK: Hostile messages

    static let addresses = [
        "/frequency/range", "/frequency/min", "/frequency/max", "/wave", "/echo", "/echo/offset",
        "/echo/volume", "/amplitude", "/amplitude/db", "/scale", "/duration", "/fidelity", "/points",
        "/load", "/save", "/play", "/stop", "/fourier-terms", "/anti-alias",
    ]

    private mutating func anyAddress() -> String { prefix + FuzzCorpus.addresses[rng.below(FuzzCorpus.addresses.count)] }

    private mutating func wrongArity() -> [UInt8] {
        // Every address takes a fixed number of arguments; 5 to 9 fits none of them but
        // /points, whose pairs the odd counts break.
        let count = [5, 7, 9][rng.below(3)]
        let address = rng.below(3) == 0 ? prefix + "/frequency/range" : anyAddress()
        let args = (0..<(address.hasSuffix("/play") || address.hasSuffix("/stop") ? 3 : count)).map { _ in OSCPacket.Argument.float(1) }
        return OSCPacket.message(address.hasSuffix("/points") ? prefix + "/points" : address, args)
    }

    private mutating func wrongType() -> [UInt8] {
        let numeric = ["/amplitude", "/echo/volume", "/frequency/min", "/frequency/max", "/duration", "/echo/offset", "/amplitude/db"]
        let address = prefix + numeric[rng.below(numeric.count)]
        let bad: [OSCPacket.Argument] = [.string("loud"), .blob([1, 2, 3]), .trueValue, .nilValue, .string("")]
        return OSCPacket.message(address, [bad[rng.below(bad.count)]])
    }

    /// Values each address must refuse, whatever the state: NaN, infinities, negatives,
    /// subnormals where the range starts above them, huge values, fractions for counts.
    static let invalidValues: [(String, [Double])] = [
        ("/amplitude", [.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude, 1.0000001, 1e300]),
        ("/echo/volume", [.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude, 1.5, 1e300]),
        ("/frequency/min", [.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude, 96_000.5, 1e300]),
        ("/frequency/max", [.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude, 96_000.5, 1e300]),
        ("/duration", [.nan, .infinity, -.infinity, 0, -1, Double.leastNonzeroMagnitude, Double.leastNormalMagnitude / 4, 86_401, 1e300]),
        ("/echo/offset", [.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude, 1e300]),
        ("/fidelity", [.nan, .infinity, -.infinity, 0, -1, 2.5, Double.leastNonzeroMagnitude, 2_000_001, 1e300]),
        ("/fourier-terms", [.nan, .infinity, -.infinity, 0, -1, 2.5, Double.leastNonzeroMagnitude, 1e300]),
        ("/amplitude/db", [.nan, .infinity, 0.001, 3, 1e300]),
    ]

    private mutating func badNumber() -> [UInt8] {
        let (path, values) = FuzzCorpus.invalidValues[rng.below(FuzzCorpus.invalidValues.count)]
        let v = values[rng.below(values.count)]
        switch rng.below(4) {
        case 0: return OSCPacket.message(prefix + path, [.double(v)])
        case 1 where Float(v).isNaN == v.isNaN && (Float(v) != 0 || v == 0):
            return OSCPacket.message(prefix + path, [.float(Float(v))])
        case 2:
            // A range whose ends are refused for the same reasons (or come in the wrong order).
            let w = v == 0 || v.isNaN ? Double.nan : v
            return OSCPacket.message(prefix + "/frequency/range", [.double(abs(w) + 10), .double(-abs(w))])
        default:
            let names = [prefix + "/wave", prefix + "/scale"]
            return OSCPacket.message(names[rng.below(2)], [.int(Int32([-1, 8, 99, Int(Int32.max)][rng.below(4)]))])
        }
    }

    private mutating func unknownAddress() -> [UInt8] {
        let paths = [
            "/nope", "/toneshaper", "/toneshaper/", "/toneshaper/amplitude/x", "/toneshaper/*", "/toneshaper/[a-z]",
            "/TONESHAPER/AMPLITUDE", "//", "/toneshaper/frequency", String(repeating: "/a", count: 200),
        ]
        return OSCPacket.message(paths[rng.below(paths.count)], [.float(0.1)])
    }

    private mutating func truncated() -> [UInt8] {
        // Addresses that need arguments, so that no cut (not even one that leaves the bare
        // address) can make a valid message: /play or /stop alone would be one.
        let (path, _) = FuzzCorpus.invalidValues[rng.below(FuzzCorpus.invalidValues.count)]
        let whole = OSCPacket.message(prefix + path, [.float(0.3), .float(0.4)])
        return Array(whole.prefix(max(1, rng.below(whole.count))))
    }

    private mutating func garbage() -> [UInt8] {
        let n = 1 + rng.below(200)
        var bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        if rng.below(2) == 0 { bytes[0] = UInt8(ascii: "/") }
        if rng.below(4) == 0 { bytes = Array("#bundle\0".utf8) + bytes }
        return bytes
    }

    private mutating func oversized() -> [UInt8] {
        let size = [4_000, 20_000, 60_000][rng.below(3)]
        if rng.below(2) == 0 {
            return OSCPacket.message(prefix + "/load", [.string(String(repeating: "x", count: size))])
        }
        return OSCPacket.message(prefix + "/wave", [.blob([UInt8](repeating: 7, count: size))])
    }

    private mutating func hostileBundle() -> [UInt8] {
        let now = Date().timeIntervalSince1970
        // Far past (plays at once, but the content is invalid) or far future (refused).
        let when = rng.below(2) == 0 ? now - 86_400 * Double(1 + rng.below(1000)) : now + 3600 * Double(1 + rng.below(1000))
        let inner = OSCPacket.message(prefix + "/amplitude", [.float(7)])
        var bundle = OSCPacket.bundle(ntp: OSCPacket.ntp(when), [inner])
        for _ in 0..<rng.below(4) { bundle = OSCPacket.bundle(ntp: OSCPacket.ntp(when), [bundle, inner]) }
        return bundle
    }
}

/// OSC 1.0 encoding with every argument type the fuzzer needs.
enum OSCPacket {
    enum Argument {
        case int(Int32)
        case float(Float)
        case double(Double)
        case int64(Int64)
        case string(String)
        case blob([UInt8])
        case trueValue, falseValue, nilValue
    }

    static func padded(_ s: String) -> [UInt8] {
        var bytes = Array(s.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    static func bigEndian<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }

    static func message(_ path: String, _ arguments: [Argument]) -> [UInt8] {
        var tags = ","
        var payload: [UInt8] = []
        for a in arguments {
            switch a {
            case .int(let i):
                tags += "i"
                payload += bigEndian(UInt32(bitPattern: i))
            case .float(let f):
                tags += "f"
                payload += bigEndian(f.bitPattern)
            case .double(let d):
                tags += "d"
                payload += bigEndian(d.bitPattern)
            case .int64(let h):
                tags += "h"
                payload += bigEndian(UInt64(bitPattern: h))
            case .string(let s):
                tags += "s"
                payload += padded(s)
            case .blob(let b):
                tags += "b"
                payload += bigEndian(UInt32(b.count)) + b
                while payload.count % 4 != 0 { payload.append(0) }
            case .trueValue: tags += "T"
            case .falseValue: tags += "F"
            case .nilValue: tags += "N"
            }
        }
        return padded(path) + padded(tags) + payload
    }

    static func ntp(_ unixSeconds: Double) -> UInt64 {
        let t = unixSeconds + 2_208_988_800
        let seconds = UInt64(t.rounded(.down))
        return seconds << 32 | UInt64((t - t.rounded(.down)) * 4_294_967_296)
    }

    static func bundle(ntp: UInt64, _ elements: [[UInt8]]) -> [UInt8] {
        var bytes = padded("#bundle") + bigEndian(ntp)
        for e in elements { bytes += bigEndian(UInt32(e.count)) + e }
        return bytes
    }
}

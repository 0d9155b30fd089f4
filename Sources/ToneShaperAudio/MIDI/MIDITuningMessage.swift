/// The MIDI Tuning Standard's messages (MMA's MTS, system exclusive), read without
/// allocating, as the audio thread receives them.
///
/// Frequencies travel as a key's pitch in semitones above MIDI key 0 (8.1758 Hz, key 69 at
/// 440 Hz): a semitone byte and a 14-bit fraction of a semitone (`xx yy zz`, fraction
/// (yy << 7 | zz) / 16384); `7F 7F 7F` leaves the key as it is. Read here:
/// - single note tuning change, real-time `F0 7F dev 08 02 prog n [kk xx yy zz]×n F7`, and
///   with a bank, real-time or not, `F0 7E|7F dev 08 07 bank prog n [kk xx yy zz]×n F7`;
/// - bulk tuning dump `F0 7E dev 08 01 prog name×16 [xx yy zz]×128 sum F7`, and the
///   key-based dump with a bank `F0 7E dev 08 04 bank prog name×16 [xx yy zz]×128 sum F7`,
///   whose checksum is the XOR of every byte from 7E to the last data byte, 7 bits kept;
/// - scale/octave tuning, 1-byte form `F0 7E|7F dev 08 08 ff gg hh [ss]×12 F7` (cents
///   ss − 64, −64...+63) and 2-byte form `F0 7E|7F dev 08 09 ff gg hh [ss tt]×12 F7`
///   (cents ((ss << 7 | tt) − 8192) × 100 / 8192, −100...+100), for the channels whose bits
///   ff (15–14), gg (13–7), hh (6–0) set: each pitch class's offset from equal temperament.
/// Any device id is taken (a synth answers its own and 7F, "all"; this one has no id of its own).
public enum MIDITuningMessage {
    /// What a message asks.
    public enum Change: Equatable, Sendable {
        /// Keys retuned: ``retunings(_:_:)`` lists them.
        case keys
        /// Each pitch class (C first) offset by cents from equal temperament, on the channels
        /// of `channels` (bit n: channel n, 0-based).
        case scaleOctave(channels: UInt16, cents: InlineArray<12, Double>)

        public static func == (a: Change, b: Change) -> Bool {
            switch (a, b) {
            case (.keys, .keys): return true
            case (.scaleOctave(let c1, let x), .scaleOctave(let c2, let y)):
                guard c1 == c2 else { return false }
                for k in 0..<12 where x[k] != y[k] { return false }
                return true
            default: return false
            }
        }
    }

    /// Why a message was refused (the audio side counts it and changes nothing).
    public enum Refusal: Error, Equatable, Sendable {
        /// Not a tuning message (another system exclusive message): not a fault.
        case notTuning
        /// A tuning message of a form this does not read (a dump request, say): not a fault.
        case unsupported
        /// Shorter or longer than its form, a data byte above 7F, or no F7 at its end.
        case malformed
        /// A bulk dump whose checksum does not match its bytes.
        case checksum
    }

    /// The semitone value of `xx yy zz`; nil for 7F 7F 7F ("no change") or an out-of-range key.
    @inlinable
    public static func pitch(_ xx: UInt8, _ yy: UInt8, _ zz: UInt8) -> Double? {
        if xx == 0x7F && yy == 0x7F && zz == 0x7F { return nil }
        return Double(xx) + Double(Int(yy) << 7 | Int(zz)) / 16_384
    }

    /// What `message` (F0 ... F7, whole) asks, checked whole before anything is taken.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func read(_ message: UnsafeRawBufferPointer) -> Result<Change, Refusal> {
        let n = message.count
        guard n >= 6, message[0] == 0xF0, message[1] == 0x7E || message[1] == 0x7F, message[3] == 0x08 else { return .failure(.notTuning) }
        guard message[n - 1] == 0xF7 else { return .failure(.malformed) }
        for i in 1..<(n - 1) where message[i] > 0x7F { return .failure(.malformed) }
        let realTime = message[1] == 0x7F
        switch message[4] {
        case 0x02 where realTime:
            // F0 7F dev 08 02 prog count [kk xx yy zz]... F7
            guard n >= 8, n == 8 + 4 * Int(message[6]) else { return .failure(.malformed) }
            return .success(.keys)
        case 0x07:
            // F0 7E|7F dev 08 07 bank prog count [kk xx yy zz]... F7
            guard n >= 9, n == 9 + 4 * Int(message[7]) else { return .failure(.malformed) }
            return .success(.keys)
        case 0x01 where !realTime, 0x04 where !realTime:
            // The dump's header: F0 7E dev 08 01 prog (or 04 bank prog), a 16-byte name.
            let header = message[4] == 0x01 ? 6 : 7
            guard n == header + 16 + 3 * 128 + 2 else { return .failure(.malformed) }
            var sum: UInt8 = 0
            for i in 1..<(n - 2) { sum ^= message[i] }
            guard sum & 0x7F == message[n - 2] else { return .failure(.checksum) }
            return .success(.keys)
        case 0x08, 0x09:
            let two = message[4] == 0x09
            guard n == 8 + 12 * (two ? 2 : 1) + 1 else { return .failure(.malformed) }
            let channels = UInt16(message[5] & 0x03) << 14 | UInt16(message[6]) << 7 | UInt16(message[7])
            var cents = InlineArray<12, Double>(repeating: 0)
            for k in 0..<12 {
                if two {
                    cents[k] = Double((Int(message[8 + 2 * k]) << 7 | Int(message[9 + 2 * k])) - 8192) * 100 / 8192
                } else {
                    cents[k] = Double(Int(message[8 + k]) - 64)
                }
            }
            return .success(.scaleOctave(channels: channels, cents: cents))
        default:
            return .failure(.unsupported)
        }
    }

    /// The keys a checked message (``read(_:)`` gave ``Change/keys``) retunes, each handed to
    /// `body` with its pitch in semitones above key 0 (a dump's "no change" entries are left out).
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func retunings(_ message: UnsafeRawBufferPointer, _ body: (_ key: Int, _ semitones: Double) -> Void) {
        switch message[4] {
        case 0x02, 0x07:
            let first = message[4] == 0x02 ? 7 : 8
            for i in 0..<Int(message[first - 1]) {
                let at = first + 4 * i
                if let pitch = pitch(message[at + 1], message[at + 2], message[at + 3]) { body(Int(message[at]), pitch) }
            }
        case 0x01, 0x04:
            let first = (message[4] == 0x01 ? 6 : 7) + 16
            for key in 0..<128 {
                let at = first + 3 * key
                if let pitch = pitch(message[at], message[at + 1], message[at + 2]) { body(key, pitch) }
            }
        default:
            return
        }
    }

    /// Whether `m` is a GM System On (F0 7E dev 09 01 F7) or a GS Reset
    /// (F0 41 dev 42 12 40 00 7F 00 41 F7): what drops the keys tuning messages set.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func isReset(_ m: UnsafeRawBufferPointer) -> Bool {
        if m.count == 6 && m[0] == 0xF0 && m[1] == 0x7E && m[3] == 0x09 && m[4] == 0x01 && m[5] == 0xF7 { return true }
        guard m.count == 11 && m[0] == 0xF0 && m[1] == 0x41 else { return false }
        let gs: InlineArray<8, UInt8> = [0x42, 0x12, 0x40, 0x00, 0x7F, 0x00, 0x41, 0xF7]
        for i in 0..<8 where m[3 + i] != gs[i] { return false }
        return true
    }
}

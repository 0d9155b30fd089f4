import Foundation

/// What the microtuning tests send from outside: MIDI Tuning Standard messages, and the
/// stand-in MTS-ESP master library (Tests/MTSMaster) they load into a plugin or the node.
public enum MTSMessages {
    /// Real-time single note tuning change: key 69 to 71.5 semitones (A4 to 508.36 Hz).
    public static let retune: [UInt8] = [0xF0, 0x7F, 0x7F, 0x08, 0x02, 0x00, 0x01, 69, 71, 0x40, 0x00, 0xF7]
    /// The pitch `retune` gives key 69.
    public static let retunedHz = 440 * pow(2, 2.5 / 12)

    /// A bulk dump (every key 5 semitones up) whose checksum is wrong: refused whole.
    public static let badDump: [UInt8] = {
        var dump: [UInt8] = [0xF0, 0x7E, 0x7F, 0x08, 0x01, 0x00] + Array("bad checksum    ".utf8)
        for key in 0..<128 { dump += [UInt8(min(127, key + 5)), 0, 0] }
        var sum: UInt8 = 0
        for byte in dump.dropFirst() { sum ^= byte }
        return dump + [(sum ^ 0x55) & 0x7F, 0xF7]
    }()

    /// `bytes` as the test hosts' --sysex takes them.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// A constant 440 Hz sine, no echo, in instrument mode (silent until a note): a document's text.
    public static let constantTone = """
        {"points": [[0, 440]], "duration": 1, "minFrequency": 20, "maxFrequency": 2000,
         "componentType": "Sine", "scaleType": "None", "amplitude": 0.5, "echoVolume": 0,
         "instrument": true}
        """

    /// The stand-in MTS-ESP master, built once per test process.
    public static func standInMaster() throws -> URL {
        try TestTools.compiled("Tests/MTSMaster/stand_in_master.c", into: ".build/mts-master/libMTS.so", flags: ["-std=gnu11", "-shared", "-fPIC"])
    }
}

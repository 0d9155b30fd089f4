/// The parameters a format without MIDI (VST 3) adds to the table's, so that a host's MIDI
/// reaches the core as it reaches it from LV2 and CLAP: the program (a built-in shape), and
/// per MIDI channel a hidden parameter for each controller (0...127) and pitch bend, which the
/// host fills from its MIDI and the shell turns back into the message
/// (``PluginSession/midi(_:_:_:at:)``). Their ids lie far above the table's stable numbers and
/// never change: the program 0x8000, a controller 0x10000 + channel × 256 + its number
/// (pitch bend's number is 129, after the controllers and channel pressure, as VST 3 numbers them).
public enum MIDIParameters {
    public static var programID: UInt32 { 0x8000 }
    public static var base: UInt32 { 0x10000 }
    public static var pitchBendNumber: Int { 129 }
    /// Per channel: controllers 0...127, then pitch bend.
    static var perChannel: Int { 129 }
    public static var count: Int { 16 * perChannel }

    public static func id(_ index: Int) -> UInt32 {
        let number = index % perChannel
        return base + UInt32(index / perChannel) << 8 + UInt32(number < 128 ? number : pitchBendNumber)
    }

    /// The id a host's controller `number` (0...127, or pitch bend's) on `channel` moves.
    public static func id(channel: Int, number: Int) -> UInt32? {
        guard channel >= 0, channel <= 15, number >= 0, number <= 127 || number == pitchBendNumber else { return nil }
        return base + UInt32(channel) << 8 + UInt32(number)
    }

    public static func index(of id: UInt32) -> Int? {
        guard id >= base, id < base + 16 << 8 else { return nil }
        let channel = Int((id - base) >> 8)
        let number = Int((id - base) & 0xFF)
        if number < 128 { return channel * perChannel + number }
        return number == pitchBendNumber ? channel * perChannel + 128 : nil
    }

    public static func isPitchBend(_ index: Int) -> Bool { index % perChannel == 128 }

    /// The highest value: a controller's 127, pitch bend's 16383 (8192 the centre).
    public static func steps(_ index: Int) -> Int { isPitchBend(index) ? 16383 : 127 }

    public static func value(_ index: Int, _ normalized: Double) -> Int { Int((min(1, max(0, normalized)) * Double(steps(index))).rounded()) }

    public static func normalized(_ index: Int, value: Double) -> Double { min(1, max(0, value / Double(steps(index)))) }

    /// The MIDI message the parameter stands for at `normalized`.
    public static func message(_ index: Int, _ normalized: Double) -> (UInt8, UInt8, UInt8) {
        let channel = UInt8(index / perChannel)
        let value = value(index, normalized)
        if isPitchBend(index) { return (0xE0 | channel, UInt8(value & 0x7F), UInt8(value >> 7)) }
        return (0xB0 | channel, UInt8(index % perChannel), UInt8(value))
    }

    public static func defaultValue(_ index: Int) -> Double { isPitchBend(index) ? 0.5 : 0 }

    public static func name(_ index: Int) -> String {
        let channel = " (channel " + String(index / perChannel + 1) + ")"
        return isPitchBend(index) ? "Pitch bend" + channel : "MIDI CC " + String(index % perChannel) + channel
    }

    /// The program (of `count`) at a normalized value, and back.
    public static func program(_ normalized: Double, of count: Int) -> Int { Int((min(1, max(0, normalized)) * Double(max(0, count - 1))).rounded()) }
    public static func normalized(program: Int, of count: Int) -> Double { count > 1 ? Double(program) / Double(count - 1) : 0 }
}

/// A host's LV2 features as the plugin and its editor window read them, without LV2's C
/// headers: a NULL-terminated array of pointers to `LV2_Feature { const char *URI; void
/// *data; }`. One reader for the plugin (instantiate) and the UI (its instantiate).
public struct LV2FeatureList {
    let features: UnsafePointer<UnsafeRawPointer?>?

    /// `features` as LV2 passes it (`const LV2_Feature *const *`).
    public init(_ features: UnsafeRawPointer?) {
        self.features = features?.assumingMemoryBound(to: UnsafeRawPointer?.self)
    }

    /// The data of the feature `uri` (nil: the host does not offer it, or offers no data).
    public func data(_ uri: StaticString) -> UnsafeMutableRawPointer? {
        guard let features else { return nil }
        var index = 0
        while let feature = features[index] {
            index += 1
            let pair = feature.assumingMemoryBound(to: UnsafeRawPointer?.self)
            if let name = pair[0], LV2FeatureList.equal(name, uri) { return pair[1].map { UnsafeMutableRawPointer(mutating: $0) } }
        }
        return nil
    }

    /// Whether the NUL-terminated `text` is `uri`.
    public static func equal(_ text: UnsafeRawPointer, _ uri: StaticString) -> Bool {
        let bytes = text.assumingMemoryBound(to: UInt8.self)
        let count = uri.utf8CodeUnitCount
        for i in 0..<count where bytes[i] != uri.utf8Start[i] { return false }
        return bytes[count] == 0
    }
}

/// Every URI the plugin and its editor window use, mapped once when each starts (urid:map
/// is required by both): `LV2_URID_Map { void *handle; LV2_URID (*map)(void *, const char *); }`.
public struct LV2URIDs {
    public let atomSequence, atomObject, atomBlank, atomString, atomPath, atomURID: UInt32
    public let atomInt, atomLong, atomFloat, atomDouble, atomVector, atomBeatTime, atomEventTransfer: UInt32
    public let unitsBeat, midiEvent: UInt32
    public let patchSet, patchGet, patchProperty, patchValue: UInt32
    public let document, file, points, playhead, tuning: UInt32
    /// The tuning's file parameters (``LV2Identity/scaleFileURI``, ``LV2Identity/keyboardMapFileURI``).
    public let scaleFile, keyboardMapFile: UInt32
    /// The window's snapshots of the document (``LV2Identity/snapshotURI``).
    public let snapshot: UInt32
    public let logError, logWarning, logNote: UInt32
    public let sampleRate, maxBlockLength, sequenceSize, scaleFactor: UInt32
    public let timePosition, timeSpeed, timeFrame, timeBar, timeBarBeat, timeBeatsPerBar, timeBeatsPerMinute: UInt32

    /// `map` is the host's urid:map feature's data.
    public init(map: UnsafeRawPointer) {
        typealias Map = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UInt32
        let handle = map.load(as: UnsafeMutableRawPointer?.self)
        let function = map.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: Map.self)
        func id(_ uri: StaticString) -> UInt32 {
            function(handle, UnsafeRawPointer(uri.utf8Start).assumingMemoryBound(to: CChar.self))
        }
        atomSequence = id("http://lv2plug.in/ns/ext/atom#Sequence")
        atomObject = id("http://lv2plug.in/ns/ext/atom#Object")
        atomBlank = id("http://lv2plug.in/ns/ext/atom#Blank")
        atomString = id("http://lv2plug.in/ns/ext/atom#String")
        atomPath = id("http://lv2plug.in/ns/ext/atom#Path")
        atomURID = id("http://lv2plug.in/ns/ext/atom#URID")
        atomInt = id("http://lv2plug.in/ns/ext/atom#Int")
        atomLong = id("http://lv2plug.in/ns/ext/atom#Long")
        atomFloat = id("http://lv2plug.in/ns/ext/atom#Float")
        atomDouble = id("http://lv2plug.in/ns/ext/atom#Double")
        atomVector = id("http://lv2plug.in/ns/ext/atom#Vector")
        atomBeatTime = id("http://lv2plug.in/ns/ext/atom#beatTime")
        atomEventTransfer = id("http://lv2plug.in/ns/ext/atom#eventTransfer")
        unitsBeat = id("http://lv2plug.in/ns/ext/units#beat")
        midiEvent = id("http://lv2plug.in/ns/ext/midi#MidiEvent")
        patchSet = id("http://lv2plug.in/ns/ext/patch#Set")
        patchGet = id("http://lv2plug.in/ns/ext/patch#Get")
        patchProperty = id("http://lv2plug.in/ns/ext/patch#property")
        patchValue = id("http://lv2plug.in/ns/ext/patch#value")
        document = id(LV2Identity.documentURI)
        file = id(LV2Identity.fileURI)
        scaleFile = id(LV2Identity.scaleFileURI)
        keyboardMapFile = id(LV2Identity.keyboardMapFileURI)
        snapshot = id(LV2Identity.snapshotURI)
        points = id(LV2Identity.pointsURI)
        playhead = id(LV2Identity.playheadURI)
        tuning = id(LV2Identity.tuningURI)
        logError = id("http://lv2plug.in/ns/ext/log#Error")
        logWarning = id("http://lv2plug.in/ns/ext/log#Warning")
        logNote = id("http://lv2plug.in/ns/ext/log#Note")
        sampleRate = id("http://lv2plug.in/ns/ext/parameters#sampleRate")
        maxBlockLength = id("http://lv2plug.in/ns/ext/buf-size#maxBlockLength")
        sequenceSize = id("http://lv2plug.in/ns/ext/buf-size#sequenceSize")
        scaleFactor = id("http://lv2plug.in/ns/extensions/ui#scaleFactor")
        timePosition = id("http://lv2plug.in/ns/ext/time#Position")
        timeSpeed = id("http://lv2plug.in/ns/ext/time#speed")
        timeFrame = id("http://lv2plug.in/ns/ext/time#frame")
        timeBar = id("http://lv2plug.in/ns/ext/time#bar")
        timeBarBeat = id("http://lv2plug.in/ns/ext/time#barBeat")
        timeBeatsPerBar = id("http://lv2plug.in/ns/ext/time#beatsPerBar")
        timeBeatsPerMinute = id("http://lv2plug.in/ns/ext/time#beatsPerMinute")
    }
}

/// A host's options:options array, read without LV2's C headers: `LV2_Options_Option {
/// context, subject, key, size, type (32 bits each); const void *value; }`, ended by a key of 0.
public struct LV2OptionList {
    let options: UnsafeRawPointer?
    static var stride: Int { 5 * 4 + 4 + MemoryLayout<UnsafeRawPointer>.stride }

    /// The options feature's data (nil: the host offers none; every lookup is then nil).
    public init(_ options: UnsafeRawPointer?) { self.options = options }

    /// The value of option `key` when it is a 4-byte atom of `type`, as its raw bits.
    func bits(_ key: UInt32, type: UInt32) -> UInt32? {
        guard let options else { return nil }
        var option = options
        while true {
            let found = option.load(fromByteOffset: 8, as: UInt32.self)
            if found == 0 { return nil }
            if found == key, option.load(fromByteOffset: 12, as: UInt32.self) == 4, option.load(fromByteOffset: 16, as: UInt32.self) == type,
                let value = option.load(fromByteOffset: 24, as: UnsafeRawPointer?.self)
            {
                return value.loadUnaligned(as: UInt32.self)
            }
            option += LV2OptionList.stride
        }
    }

    /// Option `key` as an atom:Int above 0 (a block length, a buffer size).
    public func positiveInt(_ key: UInt32, _ urids: LV2URIDs) -> Int? {
        guard let bits = bits(key, type: urids.atomInt), Int32(bitPattern: bits) > 0 else { return nil }
        return Int(Int32(bitPattern: bits))
    }

    /// Option `key` as an atom:Float (a scale factor), if finite.
    public func float(_ key: UInt32, _ urids: LV2URIDs) -> Double? {
        guard let bits = bits(key, type: urids.atomFloat), Float(bitPattern: bits).isFinite else { return nil }
        return Double(Float(bitPattern: bits))
    }
}

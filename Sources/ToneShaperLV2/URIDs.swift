import CLV2
import ToneShaperLV2Layout

/// Every URI the plugin uses, mapped once in instantiate (urid:map is required).
struct URIDs {
    let atomSequence: LV2_URID
    let atomObject: LV2_URID
    let atomBlank: LV2_URID
    let atomString: LV2_URID
    let atomPath: LV2_URID
    let atomURID: LV2_URID
    let atomInt: LV2_URID
    let atomFloat: LV2_URID
    let atomBeatTime: LV2_URID
    let unitsBeat: LV2_URID
    let midiEvent: LV2_URID
    let patchSet: LV2_URID
    let patchGet: LV2_URID
    let patchProperty: LV2_URID
    let patchValue: LV2_URID
    let document: LV2_URID
    let file: LV2_URID
    let logError: LV2_URID
    let logWarning: LV2_URID
    let logNote: LV2_URID
    let sampleRate: LV2_URID
    let maxBlockLength: LV2_URID
    let sequenceSize: LV2_URID
    let atomLong: LV2_URID
    let atomDouble: LV2_URID
    let timePosition: LV2_URID
    let timeSpeed: LV2_URID
    let timeFrame: LV2_URID
    let timeBar: LV2_URID
    let timeBarBeat: LV2_URID
    let timeBeatsPerBar: LV2_URID
    let timeBeatsPerMinute: LV2_URID
    let points: LV2_URID
    let playhead: LV2_URID
    let atomVector: LV2_URID

    init(map: UnsafePointer<LV2_URID_Map>) {
        func id(_ uri: StaticString) -> LV2_URID {
            let text = UnsafeRawPointer(uri.utf8Start).assumingMemoryBound(to: CChar.self)
            return map.pointee.map(map.pointee.handle, text)
        }
        atomSequence = id("http://lv2plug.in/ns/ext/atom#Sequence")
        atomObject = id("http://lv2plug.in/ns/ext/atom#Object")
        atomBlank = id("http://lv2plug.in/ns/ext/atom#Blank")
        atomString = id("http://lv2plug.in/ns/ext/atom#String")
        atomPath = id("http://lv2plug.in/ns/ext/atom#Path")
        atomURID = id("http://lv2plug.in/ns/ext/atom#URID")
        atomInt = id("http://lv2plug.in/ns/ext/atom#Int")
        atomFloat = id("http://lv2plug.in/ns/ext/atom#Float")
        atomBeatTime = id("http://lv2plug.in/ns/ext/atom#beatTime")
        unitsBeat = id("http://lv2plug.in/ns/ext/units#beat")
        midiEvent = id("http://lv2plug.in/ns/ext/midi#MidiEvent")
        patchSet = id("http://lv2plug.in/ns/ext/patch#Set")
        patchGet = id("http://lv2plug.in/ns/ext/patch#Get")
        patchProperty = id("http://lv2plug.in/ns/ext/patch#property")
        patchValue = id("http://lv2plug.in/ns/ext/patch#value")
        document = id(LV2Identity.documentURI)
        file = id(LV2Identity.fileURI)
        logError = id("http://lv2plug.in/ns/ext/log#Error")
        logWarning = id("http://lv2plug.in/ns/ext/log#Warning")
        logNote = id("http://lv2plug.in/ns/ext/log#Note")
        sampleRate = id("http://lv2plug.in/ns/ext/parameters#sampleRate")
        maxBlockLength = id("http://lv2plug.in/ns/ext/buf-size#maxBlockLength")
        sequenceSize = id("http://lv2plug.in/ns/ext/buf-size#sequenceSize")
        atomLong = id("http://lv2plug.in/ns/ext/atom#Long")
        atomDouble = id("http://lv2plug.in/ns/ext/atom#Double")
        timePosition = id("http://lv2plug.in/ns/ext/time#Position")
        timeSpeed = id("http://lv2plug.in/ns/ext/time#speed")
        timeFrame = id("http://lv2plug.in/ns/ext/time#frame")
        timeBar = id("http://lv2plug.in/ns/ext/time#bar")
        timeBarBeat = id("http://lv2plug.in/ns/ext/time#barBeat")
        timeBeatsPerBar = id("http://lv2plug.in/ns/ext/time#beatsPerBar")
        timeBeatsPerMinute = id("http://lv2plug.in/ns/ext/time#beatsPerMinute")
        points = id(LV2Identity.pointsURI)
        playhead = id(LV2Identity.playheadURI)
        atomVector = id("http://lv2plug.in/ns/ext/atom#Vector")
    }
}

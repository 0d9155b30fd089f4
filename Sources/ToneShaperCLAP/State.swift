import CCLAP
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// State and presets (main thread): the whole document, as the node writes it and the LV2
/// plugin's state holds it; every parameter is in it, so a host that restores a plugin
/// through its state alone gets every value back.
extension Plugin {
    /// clap.state save: the document as it plays, written whole.
    mutating func save(to stream: UnsafePointer<toneshaper_clap_ostream>) -> Bool {
        session.writeDocument(session.documentToSave()) { bytes, count in Int(stream.pointee.write?(stream, bytes, UInt64(count)) ?? -1) }
    }

    /// clap.state load: a document, checked before anything changes; refused (logged, the
    /// sound unchanged) when empty, too large, cut short or not a ToneShaper document.
    mutating func load(from stream: UnsafePointer<toneshaper_clap_istream>) -> Bool {
        guard let bytes = session.readDocument({ buffer, count in Int(stream.pointee.read?(stream, buffer, UInt64(count)) ?? -1) }) else {
            return false
        }
        return play(document: bytes, what: "the state")
    }

    /// clap.preset-load: a `.toneshaper` file, or a built-in shape by name (location kind
    /// plugin, the key its name).
    mutating func loadPreset(kind: UInt32, location: UnsafePointer<CChar>?, key: UnsafePointer<CChar>?) -> Bool {
        switch Int(kind) {
        case Int(TONESHAPER_CLAP_PRESET_LOCATION_FILE):
            guard let location else {
                session.services.log(.error, "a preset file was asked for without its path; the sound is unchanged")
                return false
            }
            do throws(DocumentFile.Refusal) {
                return play(document: try DocumentFile.read(location), what: "the preset file")
            } catch {
                session.services.log(.error, "the preset file " + String(cString: location) + " " + error.reason + "; the sound is unchanged")
                return false
            }
        case Int(TONESHAPER_CLAP_PRESET_LOCATION_PLUGIN):
            let wanted = key.map { String(cString: $0) } ?? ""
            for index in 0..<Int(toneshaper_clap_builtin_count()) {
                var size = 0
                var name: UnsafePointer<CChar>?
                guard let data = toneshaper_clap_builtin(Int32(index), &size, &name), let name, String(cString: name) == wanted else { continue }
                return play(document: Array(UnsafeBufferPointer(start: data, count: size)), what: "the built-in preset")
            }
            session.services.log(.error, "there is no built-in preset named \"" + wanted + "\"; the sound is unchanged")
            return false
        default:
            session.services.log(.error, "a preset of a location kind the plugin does not know was asked for; the sound is unchanged")
            return false
        }
    }

    /// A document to play (the core's), then the host is told to read the values again.
    mutating func play(document bytes: [UInt8], what: String) -> Bool {
        guard session.play(document: bytes, what: what) else { return false }
        if let hostParams, let rescan = hostParams.pointee.rescan { rescan(host, TONESHAPER_CLAP_PARAM_RESCAN_VALUES) }
        return true
    }
}

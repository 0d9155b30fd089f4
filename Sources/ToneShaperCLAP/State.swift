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
        if !active { takePending() }
        waitForWorker()  // the changes queued so far reach the document first
        let played = Array(shared.documentForSaving())
        let document = params.unmodulated(played)
        return document.withUnsafeBytes { write($0, to: stream) }
    }

    func write(_ bytes: UnsafeRawBufferPointer, to stream: UnsafePointer<toneshaper_clap_ostream>) -> Bool {
        let written = DocumentStream.write(bytes) { Int(stream.pointee.write?(stream, $0, UInt64($1)) ?? -1) }
        if !written { services.log(.error, "the host's stream refused the state; not saved") }
        return written
    }

    /// clap.state load: a document, checked before anything changes; refused (logged, the
    /// sound unchanged) when empty, too large, cut short or not a ToneShaper document.
    mutating func load(from stream: UnsafePointer<toneshaper_clap_istream>) -> Bool {
        let bytes: [UInt8]
        do throws(DocumentFile.Refusal) {
            bytes = try DocumentStream.read { Int(stream.pointee.read?(stream, $0, UInt64($1)) ?? -1) }
        } catch {
            services.log(.error, "the state " + error.reason + "; the sound is unchanged")
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
                services.log(.error, "a preset file was asked for without its path; the sound is unchanged")
                return false
            }
            do throws(DocumentFile.Refusal) {
                return play(document: try DocumentFile.read(location), what: "the preset file")
            } catch {
                services.log(.error, "the preset file " + String(cString: location) + " " + error.reason + "; the sound is unchanged")
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
            services.log(.error, "there is no built-in preset named \"" + wanted + "\"; the sound is unchanged")
            return false
        default:
            services.log(.error, "a preset of a location kind the plugin does not know was asked for; the sound is unchanged")
            return false
        }
    }

    /// A document to play: checked here, then handed to the engine, whose plan reaches the
    /// audio thread at its next block; the parameters then read the document's values.
    mutating func play(document bytes: [UInt8], what: String) -> Bool {
        let shape: ToneShape
        do throws(DocumentError) {
            shape = try ToneShapeDocument.decode(bytes, source: "document")
        } catch {
            services.log(.error, what + " was refused, the sound is unchanged: " + error.description)
            return false
        }
        waitForWorker()
        // Not active, no block runs: the engine takes it at once. Active, its answer waits
        // for the next block.
        let loaded = bytes.withUnsafeBytes { active ? shared.load(document: $0, answer: RingAnswer(ring: fromMain)) : engine.restore(document: $0) }
        guard loaded else { return false }
        params.reset(to: shape)
        if let hostParams, let rescan = hostParams.pointee.rescan { rescan(host, TONESHAPER_CLAP_PARAM_RESCAN_VALUES) }
        sendPointsToEditor(always: false)
        return true
    }
}

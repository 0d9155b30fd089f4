import CVST3
import ToneShaperPlugin

/// State (main thread): IComponent's getState and setState write and read the whole document,
/// the same bytes CLAP's state and LV2's hold; every parameter is in it. A host's IBStream
/// may read or write less than asked: the loops go on until it is done, and a stream that
/// fails or gives nothing changes nothing.
extension Plugin {
    mutating func save(to stream: UnsafeMutablePointer<toneshaper_vst3_stream>) -> Bool {
        let document = session.documentToSave()
        return session.writeDocument(document) { bytes, count in
            var written: Int32 = 0
            let result = stream.pointee.vtable.pointee.write?(
                stream, UnsafeMutableRawPointer(mutating: bytes), Int32(min(count, Int(Int32.max))), &written)
            return result == TONESHAPER_VST3_OK ? Int(written) : -1
        }
    }

    mutating func load(from stream: UnsafeMutablePointer<toneshaper_vst3_stream>) -> Bool {
        let bytes = session.readDocument { buffer, count in
            var read: Int32 = 0
            let result = stream.pointee.vtable.pointee.read?(stream, buffer, Int32(count), &read)
            // A stream at its end reads 0 bytes (some hosts' say kResultFalse then).
            guard result == TONESHAPER_VST3_OK || (result == TONESHAPER_VST3_FALSE && read == 0) else { return -1 }
            return Int(read)
        }
        guard let bytes else { return false }
        return session.play(document: bytes, what: "the state")
    }
}

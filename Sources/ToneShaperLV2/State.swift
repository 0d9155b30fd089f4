import CLV2
import ToneShaperLV2Layout
import ToneShaperPlugin

/// The state interface (state:interface): the whole document as one atom:String property,
/// `urn:toneshaper:document`.
enum State {
    static let save:
        @convention(c) (
            LV2_Handle?, LV2_State_Store_Function?, LV2_State_Handle?, UInt32, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2_State_Status = { instance, store, handle, _, _ in
            guard let instance, let store else { return LV2_STATE_ERR_UNKNOWN }
            let plugin = instance.assumingMemoryBound(to: Plugin.self)
            let json = plugin.pointee.engine.documentForSaving()
            guard json.count > 0 else { return LV2_STATE_SUCCESS }
            let flags = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
            // An atom:String carries its NUL.
            let stored = DocumentText.withNUL(json) { text, size in
                store(handle, plugin.pointee.urids.document, text, size, plugin.pointee.urids.atomString, flags)
            }
            guard let stored else {
                plugin.pointee.log.write(.error, "the document is larger than 16 MB; not saved")
                return LV2_STATE_ERR_UNKNOWN
            }
            return stored
        }

    static let restore:
        @convention(c) (
            LV2_Handle?, LV2_State_Retrieve_Function?, LV2_State_Handle?, UInt32, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2_State_Status = { instance, retrieve, handle, _, _ in
            guard let instance, let retrieve else { return LV2_STATE_ERR_UNKNOWN }
            let plugin = instance.assumingMemoryBound(to: Plugin.self)
            let log = plugin.pointee.log
            var size = 0
            var type: UInt32 = 0
            var flags: UInt32 = 0
            // No document is a new instance's state: hosts restore the plugin's default state
            // (its port values alone) on every load, and a first save may have had none. The
            // sound stays as it is, and nothing is wrong: no message, and success (some hosts
            // report a failed restore).
            guard let value = retrieve(handle, plugin.pointee.urids.document, &size, &type, &flags) else {
                return LV2_STATE_SUCCESS
            }
            guard type == plugin.pointee.urids.atomString else {
                log.write(.error, "the state's document is not an atom:String; the sound is unchanged")
                return LV2_STATE_ERR_BAD_TYPE
            }
            let document: UnsafeRawBufferPointer
            do throws(DocumentFile.Refusal) {
                document = try DocumentText.document(value, size: size)
            } catch {
                log.write(.error, "the state's document " + error.reason + "; the sound is unchanged")
                return LV2_STATE_ERR_UNKNOWN
            }
            let accepted = plugin.pointee.engine.restore(document: document)
            if accepted { Worker.sendPoints(plugin: plugin, always: false) }
            return accepted ? LV2_STATE_SUCCESS : LV2_STATE_ERR_UNKNOWN
        }
}

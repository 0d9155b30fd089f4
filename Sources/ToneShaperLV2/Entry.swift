import CLV2
import CPluginSupport
import ToneShaperLV2Layout

// The shared object's one exported symbol (the linker's version script hides the rest):
// descriptor 0 is the mono plugin, 1 the stereo one.

@_cdecl("lv2_descriptor")
public func lv2Descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    index < 2 ? UnsafePointer(descriptors + Int(index)) : nil
}

/// The two descriptors, made once (their memory lives as long as the shared object).
nonisolated(unsafe) private let descriptors: UnsafeMutablePointer<LV2_Descriptor> = {
    let table = UnsafeMutablePointer<LV2_Descriptor>.allocate(capacity: 2)
    table.initialize(to: descriptor(uri: LV2Identity.monoURI, instantiate: Entry.instantiateMono))
    (table + 1).initialize(to: descriptor(uri: LV2Identity.stereoURI, instantiate: Entry.instantiateStereo))
    return table
}()

nonisolated(unsafe) private let workerInterface: UnsafeMutablePointer<LV2_Worker_Interface> = {
    let interface = UnsafeMutablePointer<LV2_Worker_Interface>.allocate(capacity: 1)
    interface.initialize(to: LV2_Worker_Interface(work: Worker.work, work_response: Worker.workResponse, end_run: Worker.endRun))
    return interface
}()

nonisolated(unsafe) private let stateInterface: UnsafeMutablePointer<LV2_State_Interface> = {
    let interface = UnsafeMutablePointer<LV2_State_Interface>.allocate(capacity: 1)
    interface.initialize(to: LV2_State_Interface(save: State.save, restore: State.restore))
    return interface
}()

private func descriptor(
    uri: StaticString,
    instantiate:
        @escaping @convention(c) (
            UnsafePointer<LV2_Descriptor>?, Double, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2_Handle?
) -> LV2_Descriptor {
    LV2_Descriptor(
        URI: UnsafeRawPointer(uri.utf8Start).assumingMemoryBound(to: CChar.self), instantiate: instantiate,
        connect_port: Entry.connectPort, activate: Entry.activate, run: Entry.run, deactivate: Entry.deactivate,
        cleanup: Entry.cleanup, extension_data: Entry.extensionData)
}

/// The descriptor's functions, as C function pointers.
enum Entry {
    static let instantiateMono:
        @convention(c) (UnsafePointer<LV2_Descriptor>?, Double, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<LV2_Feature>?>?) ->
            LV2_Handle? = { _, rate, bundle, features in
                Plugin.make(sampleRate: rate, stereo: false, bundle: bundle, features: features).map { UnsafeMutableRawPointer($0) }
            }

    static let instantiateStereo:
        @convention(c) (UnsafePointer<LV2_Descriptor>?, Double, UnsafePointer<CChar>?, UnsafePointer<UnsafePointer<LV2_Feature>?>?) ->
            LV2_Handle? = { _, rate, bundle, features in
                Plugin.make(sampleRate: rate, stereo: true, bundle: bundle, features: features).map { UnsafeMutableRawPointer($0) }
            }

    static let connectPort: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void = { instance, port, data in
        instance?.assumingMemoryBound(to: Plugin.self).pointee.connect(port: port, to: data)
    }

    static let activate: @convention(c) (LV2_Handle?) -> Void = { instance in
        instance?.assumingMemoryBound(to: Plugin.self).pointee.activate()
    }

    static let deactivate: @convention(c) (LV2_Handle?) -> Void = { instance in
        instance?.assumingMemoryBound(to: Plugin.self).pointee.engine.deactivate()
    }

    static let run: @convention(c) (LV2_Handle?, UInt32) -> Void = { instance, frames in
        runInstance(instance, frames)
    }

    static let cleanup: @convention(c) (LV2_Handle?) -> Void = { instance in
        if let instance { Plugin.destroy(instance.assumingMemoryBound(to: Plugin.self)) }
    }

    static let extensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { uri in
        if toneshaper_plugin_equal(uri, "http://lv2plug.in/ns/ext/worker#interface") != 0 { return UnsafeRawPointer(workerInterface) }
        if toneshaper_plugin_equal(uri, "http://lv2plug.in/ns/ext/state#interface") != 0 { return UnsafeRawPointer(stateInterface) }
        if toneshaper_plugin_equal(uri, "http://harrisonconsoles.com/lv2/inlinedisplay#interface") != 0 {
            return UnsafeRawPointer(InlineDisplay.interface)
        }
        return nil
    }
}

/// run(), under the real-time proof from here down.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
private func runInstance(_ instance: LV2_Handle?, _ frames: UInt32) {
    instance?.assumingMemoryBound(to: Plugin.self).pointee.run(frames: Int(frames))
}

import CEditor
import CLV2UI
import CPluginSupport
import ToneShaperEditor
import ToneShaperLV2Layout

// The editor window's shared object exports this one symbol (the linker's version script
// hides the rest): descriptor 0, the X11 UI of both plugins.

@_cdecl("lv2ui_descriptor")
public func lv2uiDescriptor(_ index: UInt32) -> UnsafePointer<LV2UI_Descriptor>? {
    index == 0 ? UnsafePointer(uiDescriptor) : nil
}

nonisolated(unsafe) private let uiDescriptor: UnsafeMutablePointer<LV2UI_Descriptor> = {
    let descriptor = UnsafeMutablePointer<LV2UI_Descriptor>.allocate(capacity: 1)
    descriptor.initialize(
        to: LV2UI_Descriptor(
            URI: UnsafeRawPointer(LV2Identity.uiURI.utf8Start).assumingMemoryBound(to: CChar.self), instantiate: UIEntry.instantiate,
            cleanup: UIEntry.cleanup, port_event: UIEntry.portEvent, extension_data: UIEntry.extensionData))
    return descriptor
}()

nonisolated(unsafe) private let idleInterface: UnsafeMutablePointer<LV2UI_Idle_Interface> = {
    let interface = UnsafeMutablePointer<LV2UI_Idle_Interface>.allocate(capacity: 1)
    interface.initialize(to: LV2UI_Idle_Interface(idle: UIEntry.idle))
    return interface
}()

nonisolated(unsafe) private let resizeInterface: UnsafeMutablePointer<LV2UI_Resize> = {
    let interface = UnsafeMutablePointer<LV2UI_Resize>.allocate(capacity: 1)
    interface.initialize(to: LV2UI_Resize(handle: nil, ui_resize: UIEntry.hostResized))
    return interface
}()

/// The descriptor's functions, as C function pointers.
enum UIEntry {
    static let instantiate:
        @convention(c) (
            UnsafePointer<LV2UI_Descriptor>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, LV2UI_Write_Function?, LV2UI_Controller?,
            UnsafeMutablePointer<LV2UI_Widget?>?, UnsafePointer<UnsafePointer<LV2_Feature>?>?
        ) -> LV2UI_Handle? = { _, pluginURI, bundlePath, write, controller, widget, features in
            guard let write else { return nil }
            let list = LV2FeatureList(UnsafeRawPointer(features))
            let parent = UInt(bitPattern: list.data("http://lv2plug.in/ns/extensions/ui#parent"))
            let map = list.data("http://lv2plug.in/ns/ext/urid#map")
            let resize = list.data("http://lv2plug.in/ns/extensions/ui#resize").map { UnsafePointer($0.assumingMemoryBound(to: LV2UI_Resize.self)) }
            let options = list.data("http://lv2plug.in/ns/ext/options#options")
            guard let map else {
                toneshaper_ui_stderr("the host offers no urid:map, which the editor requires")
                return nil
            }
            let urids = LV2URIDs(map: map)
            let scale = LV2OptionList(options).float(urids.scaleFactor, urids) ?? 1
            let link = LV2Link(
                write: write, controller: controller, urids: urids, resize: resize,
                stereo: pluginURI.map { LV2FeatureList.equal($0, LV2Identity.stereoURI) } ?? false)
            link.bundle = bundlePath.map { String(cString: $0) }
            guard let window = EditorWindow(parent: parent, scale: scale, link: link) else { return nil }
            // The host learns the window's size (ui:resize), as for every size it asks for.
            _ = link.requestSize(width: window.width, height: window.height)
            widget?.pointee = UnsafeMutableRawPointer(bitPattern: window.window)
            return Unmanaged.passRetained(LV2Editor(window: window, link: link)).toOpaque()
        }

    static let cleanup: @convention(c) (LV2UI_Handle?) -> Void = { handle in
        guard let handle else { return }
        Unmanaged<LV2Editor>.fromOpaque(handle).takeUnretainedValue().link.removeSnapshots()
        Unmanaged<LV2Editor>.fromOpaque(handle).release()
    }

    static let portEvent: @convention(c) (LV2UI_Handle?, UInt32, UInt32, UInt32, UnsafeRawPointer?) -> Void = {
        handle, port, size, format, buffer in
        guard let handle else { return }
        Unmanaged<LV2Editor>.fromOpaque(handle).takeUnretainedValue().portEvent(port: port, size: size, format: format, buffer: buffer)
    }

    static let idle: @convention(c) (LV2UI_Handle?) -> Int32 = { handle in
        guard let handle else { return 1 }
        Unmanaged<LV2Editor>.fromOpaque(handle).takeUnretainedValue().window.idle()
        return 0
    }

    /// ui:resize offered to the host: it gives the window a new size.
    static let hostResized: @convention(c) (LV2UI_Feature_Handle?, Int32, Int32) -> Int32 = { handle, w, h in
        guard let handle else { return 1 }
        Unmanaged<LV2Editor>.fromOpaque(handle).takeUnretainedValue().window.setSize(Int(w), Int(h))
        return 0
    }

    static let extensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { uri in
        if toneshaper_plugin_equal(uri, "http://lv2plug.in/ns/extensions/ui#idleInterface") != 0 { return UnsafeRawPointer(idleInterface) }
        if toneshaper_plugin_equal(uri, "http://lv2plug.in/ns/extensions/ui#resize") != 0 { return UnsafeRawPointer(resizeInterface) }
        return nil
    }
}

import CVST3
import ToneShaperPlugin

/// One instance as a host holds it: a single object that is both the processor and the
/// controller (IComponent, IAudioProcessor, IEditController, IMidiMapping, IUnitInfo,
/// INoteExpressionController, IProcessContextRequirements). Its interfaces and its one
/// reference count are entry.c's (`toneshaper_vst3_make`); this is the object behind them.
/// The plugin itself (``Plugin``) is made by initialize and freed by terminate or the last
/// release.
struct Component {
    let stereo: Bool
    var plugin: UnsafeMutablePointer<Plugin>?

    static func of(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Component>? {
        toneshaper_vst3_body(this)?.assumingMemoryBound(to: Component.self)
    }

    static func plugin(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Plugin>? { of(this)?.pointee.plugin }

    /// terminate (IComponent's or IEditController's, whichever comes first): the plugin freed.
    mutating func terminate() {
        guard let plugin else { return }
        self.plugin = nil
        Plugin.destroy(plugin)
    }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { body in
        guard let component = body?.assumingMemoryBound(to: Component.self) else { return }
        component.pointee.terminate()
        component.deinitialize(count: 1)
        component.deallocate()
    }
}

/// The factory's createInstance (entry.c): a new instance of the mono (0) or stereo class,
/// as the interface `iid`, with one reference; nil when it has no such interface.
@_cdecl("toneshaper_vst3_create")
public func create(_ stereo: Int32, _ iid: UnsafePointer<UInt8>?) -> UnsafeMutableRawPointer? {
    let component = UnsafeMutablePointer<Component>.allocate(capacity: 1)
    component.initialize(to: Component(stereo: stereo != 0, plugin: nil))
    let tables: [UnsafeRawPointer?] = [
        UnsafeRawPointer(Tables.component), UnsafeRawPointer(Tables.processor), UnsafeRawPointer(Tables.controller),
        UnsafeRawPointer(Tables.midiMapping), UnsafeRawPointer(Tables.units), UnsafeRawPointer(Tables.noteExpressions),
        UnsafeRawPointer(Tables.contextRequirements),
    ]
    guard let first = toneshaper_vst3_make(TONESHAPER_VST3_COMPONENT, component, Component.destroy, tables) else {
        Component.destroy(component)
        return nil
    }
    var object: UnsafeMutableRawPointer?
    _ = toneshaper_vst3_query(first, iid, &object)
    _ = toneshaper_vst3_release(first)  // the interface asked for holds the reference; none: freed
    return object
}

/// The results of the plugin's calls as VST 3's.
extension Bool {
    var result: Int32 { self ? TONESHAPER_VST3_OK : TONESHAPER_VST3_FALSE }
}

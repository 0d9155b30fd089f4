import CVST3
import Synchronization
import ToneShaperPlugin

/// One instance as a host holds it: a single object that is both the processor and the
/// controller (IComponent, IAudioProcessor, IEditController, IMidiMapping, IUnitInfo,
/// INoteExpressionController, IProcessContextRequirements), each interface a slot of
/// `interfaces` — the table the host calls, then this object — so every interface reaches
/// the same instance and its one reference count. The plugin itself (``Plugin``) is made by
/// initialize and freed by terminate or the last release.
struct Component {
    static var slots: Int { 7 }
    let interfaces: UnsafeMutablePointer<toneshaper_vst3_object>
    let references: UnsafeMutablePointer<Atomic<UInt32>>
    let stereo: Bool
    var plugin: UnsafeMutablePointer<Plugin>?

    static func of(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Component>? {
        this?.assumingMemoryBound(to: toneshaper_vst3_object.self).pointee.owner?.assumingMemoryBound(to: Component.self)
    }

    static func plugin(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Plugin>? { of(this)?.pointee.plugin }

    /// The interface for `iid`, a reference added; nil when the object has none.
    func query(_ iid: UnsafePointer<UInt8>?) -> UnsafeMutableRawPointer? {
        let slot = Int(toneshaper_vst3_component_slot(iid))
        guard slot >= 0 else { return nil }
        references.pointee.add(1, ordering: .relaxed)
        return UnsafeMutableRawPointer(interfaces + slot)
    }

    /// terminate (IComponent's or IEditController's, whichever comes first): the plugin freed.
    mutating func terminate() {
        guard let plugin else { return }
        self.plugin = nil
        Plugin.destroy(plugin)
    }

    static func release(_ component: UnsafeMutablePointer<Component>) -> UInt32 {
        let left = component.pointee.references.pointee.subtract(1, ordering: .acquiringAndReleasing).newValue
        guard left == 0 else { return left }
        component.pointee.terminate()
        component.pointee.interfaces.deallocate()
        component.pointee.references.deallocate()
        component.deinitialize(count: 1)
        component.deallocate()
        return 0
    }
}

/// The factory's createInstance (entry.c): a new instance of the mono (0) or stereo class,
/// as the interface `iid`, with one reference; nil when it has no such interface.
@_cdecl("toneshaper_vst3_create")
public func create(_ stereo: Int32, _ iid: UnsafePointer<UInt8>?) -> UnsafeMutableRawPointer? {
    guard toneshaper_vst3_component_slot(iid) >= 0 else { return nil }
    let component = UnsafeMutablePointer<Component>.allocate(capacity: 1)
    let interfaces = UnsafeMutablePointer<toneshaper_vst3_object>.allocate(capacity: Component.slots)
    let tables: [UnsafeRawPointer] = [
        UnsafeRawPointer(Tables.component), UnsafeRawPointer(Tables.processor), UnsafeRawPointer(Tables.controller),
        UnsafeRawPointer(Tables.midiMapping), UnsafeRawPointer(Tables.units), UnsafeRawPointer(Tables.noteExpressions),
        UnsafeRawPointer(Tables.contextRequirements),
    ]
    for slot in 0..<Component.slots {
        (interfaces + slot).initialize(to: toneshaper_vst3_object(vtable: tables[slot], owner: UnsafeMutableRawPointer(component)))
    }
    let references = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: 1)
    references.initialize(to: Atomic(0))
    component.initialize(to: Component(interfaces: interfaces, references: references, stereo: stereo != 0, plugin: nil))
    return component.pointee.query(iid)
}

/// FUnknown's three functions, the same in every interface of the component.
enum Unknown {
    static let query: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 = {
        this, iid, object in
        guard let object else { return TONESHAPER_VST3_INVALID_ARGUMENT }
        object.pointee = Component.of(this)?.pointee.query(iid)
        return object.pointee == nil ? TONESHAPER_VST3_NO_INTERFACE : TONESHAPER_VST3_OK
    }

    static let addRef: @convention(c) (UnsafeMutableRawPointer?) -> UInt32 = { this in
        guard let component = Component.of(this) else { return 0 }
        return component.pointee.references.pointee.add(1, ordering: .relaxed).newValue
    }

    static let release: @convention(c) (UnsafeMutableRawPointer?) -> UInt32 = { this in
        guard let component = Component.of(this) else { return 0 }
        return Component.release(component)
    }
}

/// The results of the plugin's calls as VST 3's.
extension Bool {
    var result: Int32 { self ? TONESHAPER_VST3_OK : TONESHAPER_VST3_FALSE }
}

import CPluginSupport
import CVST3
import Synchronization
import ToneShaperEditor
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// The editor view createView("editor") hands out (main thread): IPlugView for an X11 parent
/// window, and the Linux ITimerHandler and IEventHandler the host's run loop (IRunLoop, asked
/// of the frame) calls about 50 times a second and whenever the window's X connection has
/// events. Its own object and reference count; it holds a reference to the component, so the
/// instance outlives it. The window is the editor module's ``EmbeddedEditor``.
struct View {
    static var slots: Int { 3 }
    let interfaces: UnsafeMutablePointer<toneshaper_vst3_object>
    let references: UnsafeMutablePointer<Atomic<UInt32>>
    let component: UnsafeMutablePointer<Component>
    let editor: EmbeddedEditor
    let link: VST3EditorLink
    var frame: UnsafeMutablePointer<toneshaper_vst3_plug_frame>?
    var runLoop: UnsafeMutablePointer<toneshaper_vst3_run_loop>?
    var registered = false

    static func of(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<View>? {
        this?.assumingMemoryBound(to: toneshaper_vst3_object.self).pointee.owner?.assumingMemoryBound(to: View.self)
    }

    /// createView: a view for "editor", once the plugin is initialized.
    static func make(_ this: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
        let editorName: StaticString = "editor"
        guard let component = Component.of(this), let plugin = component.pointee.plugin,
            toneshaper_plugin_equal(name, UnsafeRawPointer(editorName.utf8Start).assumingMemoryBound(to: CChar.self)) != 0
        else { return nil }
        _ = Unknown.addRef(this)
        let view = UnsafeMutablePointer<View>.allocate(capacity: 1)
        let interfaces = UnsafeMutablePointer<toneshaper_vst3_object>.allocate(capacity: slots)
        let tables = [UnsafeRawPointer(ViewTables.view), UnsafeRawPointer(ViewTables.timer), UnsafeRawPointer(ViewTables.events)]
        for slot in 0..<slots {
            (interfaces + slot).initialize(to: toneshaper_vst3_object(vtable: tables[slot], owner: UnsafeMutableRawPointer(view)))
        }
        let references = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: 1)
        references.initialize(to: Atomic(1))
        let session = plugin.pointee.session
        view.initialize(
            to: View(
                interfaces: interfaces, references: references, component: component,
                editor: EmbeddedEditor(channel: session.editorChannel, values: session.params), link: VST3EditorLink(component: component)))
        return UnsafeMutableRawPointer(interfaces)
    }

    static func release(_ view: UnsafeMutablePointer<View>) -> UInt32 {
        let left = view.pointee.references.pointee.subtract(1, ordering: .acquiringAndReleasing).newValue
        guard left == 0 else { return left }
        view.pointee.removed()
        if let frame = view.pointee.frame { _ = frame.pointee.vtable.pointee.release?(frame) }
        let component = view.pointee.component
        view.pointee.interfaces.deallocate()
        view.pointee.references.deallocate()
        view.deinitialize(count: 1)
        view.deallocate()
        _ = Component.release(component)
        return 0
    }

    /// attached: the window inside the host's, then the host's loop drives it.
    mutating func attached(parent: UInt) -> Bool {
        guard editor.open(parent: parent, mapped: true, link: link), let window = editor.window else { return false }
        if let runLoop {
            let table = runLoop.pointee.vtable.pointee
            let timer = UnsafeMutableRawPointer(interfaces + 1)
            let events = UnsafeMutableRawPointer(interfaces + 2)
            registered = table.register_timer?(runLoop, timer, UInt64(EmbeddedEditor.period)) == TONESHAPER_VST3_OK
            _ = table.register_event_handler?(runLoop, events, window.connection)
        } else {
            component.pointee.plugin?.pointee.session.services.log(.warning, "the host's frame offers no IRunLoop: the editor window is not updated")
        }
        follow()
        return true
    }

    /// removed (or the last release): the loop's handlers unregistered, the window closed.
    mutating func removed() {
        if let runLoop, editor.window != nil {
            let table = runLoop.pointee.vtable.pointee
            _ = table.unregister_timer?(runLoop, UnsafeMutableRawPointer(interfaces + 1))
            _ = table.unregister_event_handler?(runLoop, UnsafeMutableRawPointer(interfaces + 2))
        }
        registered = false
        editor.close()
    }

    /// setFrame: the host's frame (a reference held) and its run loop.
    mutating func setFrame(_ frame: UnsafeMutablePointer<toneshaper_vst3_plug_frame>?) {
        if let frame { _ = frame.pointee.vtable.pointee.add_ref?(frame) }
        if let old = self.frame { _ = old.pointee.vtable.pointee.release?(old) }
        if let runLoop { _ = runLoop.pointee.vtable.pointee.release?(runLoop) }
        self.frame = frame
        runLoop = nil
        guard let frame else { return }
        var object: UnsafeMutableRawPointer?
        if frame.pointee.vtable.pointee.query_interface?(frame, toneshaper_vst3_host_iid(Int32(TONESHAPER_VST3_HOST_RUN_LOOP)), &object)
            == TONESHAPER_VST3_OK
        {
            runLoop = object?.assumingMemoryBound(to: toneshaper_vst3_run_loop.self)
        }
    }

    /// The host's timer or the window's events: what changed in the plugin, then the window's
    /// events and drawing.
    func follow() {
        guard let plugin = component.pointee.plugin else { return }
        plugin.pointee.tellHostIfValuesMoved()
        editor.follow(valuesSettled: true)
    }
}

/// The editor window's link to the VST 3 plugin (main thread): a parameter edit goes to the
/// host through the component handler (beginEdit, performEdit, endEdit), which sends it to
/// process() as it sends its own automation; the points go to the engine as a state does.
final class VST3EditorLink: EditorLink {
    let component: UnsafeMutablePointer<Component>

    init(component: UnsafeMutablePointer<Component>) { self.component = component }

    func edit(row: Int, _ body: (toneshaper_vst3_component_handler_vtable, UnsafeMutablePointer<toneshaper_vst3_component_handler>, UInt32) -> Void) {
        guard ParameterTable.all.indices.contains(row), let handler = component.pointee.plugin?.pointee.handler else { return }
        body(handler.pointee.vtable.pointee, handler, HostParameter.id(row))
    }

    func beginGesture(row: Int) { edit(row: row) { table, handler, id in _ = table.begin_edit?(handler, id) } }
    func setParameter(row: Int, value: Double) {
        edit(row: row) { table, handler, id in _ = table.perform_edit?(handler, id, HostParameter.normalized(row, value)) }
    }
    func endGesture(row: Int) { edit(row: row) { table, handler, id in _ = table.end_edit?(handler, id) } }
    func sendPoints(_ points: [CurvePoint]) { component.pointee.plugin?.pointee.session.takeEditorPoints(points) }
    func requestPoints() { component.pointee.plugin?.pointee.session.sendCurveToEditor() }
    /// The host asks for the size with getSize, after createView: nothing to ask here.
    func requestSize(width: Int, height: Int) {}
}

/// The view's tables. Calls out of turn (attached twice, a platform other than X11, a size
/// of 0) are refused and change nothing.
enum ViewTables {
    static let query: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 = {
        this, iid, object in
        guard let object else { return TONESHAPER_VST3_INVALID_ARGUMENT }
        let slot = Int(toneshaper_vst3_view_slot(iid))
        guard let view = View.of(this), slot >= 0 else {
            object.pointee = nil
            return TONESHAPER_VST3_NO_INTERFACE
        }
        view.pointee.references.pointee.add(1, ordering: .relaxed)
        object.pointee = UnsafeMutableRawPointer(view.pointee.interfaces + slot)
        return TONESHAPER_VST3_OK
    }
    static let addRef: @convention(c) (UnsafeMutableRawPointer?) -> UInt32 = { this in
        View.of(this)?.pointee.references.pointee.add(1, ordering: .relaxed).newValue ?? 0
    }
    static let release: @convention(c) (UnsafeMutableRawPointer?) -> UInt32 = { this in View.of(this).map { View.release($0) } ?? 0 }

    static let x11: StaticString = "X11EmbedWindowID"
    static func supported(_ type: UnsafePointer<CChar>?) -> Bool {
        toneshaper_plugin_equal(type, UnsafeRawPointer(x11.utf8Start).assumingMemoryBound(to: CChar.self)) != 0
    }

    static let view: UnsafeMutablePointer<toneshaper_vst3_plug_view_vtable> = Tables.make(
        toneshaper_vst3_plug_view_vtable(
            query_interface: query, add_ref: addRef, release: release,
            is_platform_type_supported: { _, type in supported(type).result },
            attached: { this, parent, type in
                guard let view = View.of(this), let parent, supported(type) else { return TONESHAPER_VST3_FALSE }
                return view.pointee.attached(parent: UInt(bitPattern: parent)).result
            },
            removed: { this in
                View.of(this)?.pointee.removed()
                return TONESHAPER_VST3_OK
            },
            on_wheel: { _, _ in TONESHAPER_VST3_FALSE },
            on_key_down: { _, _, _, _ in TONESHAPER_VST3_FALSE },
            on_key_up: { _, _, _, _ in TONESHAPER_VST3_FALSE },
            get_size: { this, rect in
                guard let view = View.of(this), let rect else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                let size = view.pointee.editor.currentSize
                rect.pointee = toneshaper_vst3_view_rect(left: 0, top: 0, right: Int32(size.width), bottom: Int32(size.height))
                return TONESHAPER_VST3_OK
            },
            on_size: { this, rect in
                guard let view = View.of(this), let rect else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                return view.pointee.editor.resize(Int(rect.pointee.right - rect.pointee.left), Int(rect.pointee.bottom - rect.pointee.top)).result
            },
            on_focus: { _, _ in TONESHAPER_VST3_OK },
            set_frame: { this, frame in
                View.of(this)?.pointee.setFrame(frame)
                return TONESHAPER_VST3_OK
            },
            can_resize: { _ in TONESHAPER_VST3_OK },
            check_size_constraint: { this, rect in
                guard let view = View.of(this), let rect else { return TONESHAPER_VST3_INVALID_ARGUMENT }
                let size = view.pointee.editor.adjusted(Int(rect.pointee.right - rect.pointee.left), Int(rect.pointee.bottom - rect.pointee.top))
                rect.pointee.right = rect.pointee.left + Int32(size.width)
                rect.pointee.bottom = rect.pointee.top + Int32(size.height)
                return TONESHAPER_VST3_OK
            }))

    static let timer: UnsafeMutablePointer<toneshaper_vst3_timer_handler_vtable> = Tables.make(
        toneshaper_vst3_timer_handler_vtable(
            query_interface: query, add_ref: addRef, release: release, on_timer: { this in View.of(this)?.pointee.follow() }))

    static let events: UnsafeMutablePointer<toneshaper_vst3_event_handler_vtable> = Tables.make(
        toneshaper_vst3_event_handler_vtable(
            query_interface: query, add_ref: addRef, release: release, on_fd_is_set: { this, _ in View.of(this)?.pointee.follow() }))
}

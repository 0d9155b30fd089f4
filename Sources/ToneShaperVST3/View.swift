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
    /// The controller's interface createView was called on (a reference held) and its component.
    let owner: UnsafeMutableRawPointer
    let component: UnsafeMutablePointer<Component>
    let editor: EmbeddedEditor
    let link: VST3EditorLink
    var frame: UnsafeMutablePointer<toneshaper_vst3_plug_frame>?
    var runLoop: UnsafeMutablePointer<toneshaper_vst3_run_loop>?
    /// The view's own slot 0, whose slots 1 and 2 are the run loop's timer and event handlers.
    var interface: UnsafeMutableRawPointer?

    static func of(_ this: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<View>? { toneshaper_vst3_body(this)?.assumingMemoryBound(to: View.self) }

    /// createView: a view for "editor", once the plugin is initialized.
    static func make(_ this: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
        let editorName: StaticString = "editor"
        guard let this, let component = Component.of(this), let plugin = component.pointee.plugin,
            toneshaper_plugin_equal(name, UnsafeRawPointer(editorName.utf8Start).assumingMemoryBound(to: CChar.self)) != 0
        else { return nil }
        let view = UnsafeMutablePointer<View>.allocate(capacity: 1)
        let session = plugin.pointee.session
        view.initialize(
            to: View(
                owner: this, component: component, editor: EmbeddedEditor(channel: session.editorChannel, values: session.params),
                link: VST3EditorLink(component: component)))
        let tables: [UnsafeRawPointer?] = [
            UnsafeRawPointer(ViewTables.view), UnsafeRawPointer(ViewTables.timer), UnsafeRawPointer(ViewTables.events),
        ]
        guard let interface = toneshaper_vst3_make(TONESHAPER_VST3_VIEW, view, destroy, tables) else {
            view.deinitialize(count: 1)
            view.deallocate()
            return nil
        }
        view.pointee.interface = interface
        view.pointee.link.view = view
        _ = toneshaper_vst3_add_ref(this)
        return interface
    }

    /// The last release: the window closed, the frame and the component let go.
    static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { body in
        guard let view = body?.assumingMemoryBound(to: View.self) else { return }
        view.pointee.removed()
        view.pointee.setFrame(nil)
        let owner = view.pointee.owner
        view.deinitialize(count: 1)
        view.deallocate()
        _ = toneshaper_vst3_release(owner)
    }

    /// attached: the window inside the host's, then the host's loop drives it.
    mutating func attached(parent: UInt) -> Bool {
        guard editor.open(parent: parent, mapped: true, link: link), let window = editor.window else { return false }
        if let runLoop {
            let table = runLoop.pointee.vtable.pointee
            _ = table.register_timer?(runLoop, toneshaper_vst3_slot(interface, 1), UInt64(EmbeddedEditor.period))
            _ = table.register_event_handler?(runLoop, toneshaper_vst3_slot(interface, 2), window.connection)
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
            _ = table.unregister_timer?(runLoop, toneshaper_vst3_slot(interface, 1))
            _ = table.unregister_event_handler?(runLoop, toneshaper_vst3_slot(interface, 2))
        }
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
        editor.follow(valuesSettled: link.held == 0)
    }
}

/// The editor window's link to the VST 3 plugin (main thread): a parameter edit goes to the
/// host through the component handler (beginEdit, performEdit, endEdit), which sends it to
/// process() as it sends its own automation; the points go to the engine as a state does.
final class VST3EditorLink: EditorLink {
    let component: UnsafeMutablePointer<Component>
    /// Controls held (between a gesture's begin and end): the host's values lag the window's, which it shows.
    var held = 0
    /// The view the window is in (its frame resizes it), once made; the view outlives the window.
    var view: UnsafeMutablePointer<View>?

    init(component: UnsafeMutablePointer<Component>) { self.component = component }

    func edit(row: Int, _ body: (toneshaper_vst3_component_handler_vtable, UnsafeMutablePointer<toneshaper_vst3_component_handler>, UInt32) -> Void) {
        guard ParameterTable.all.indices.contains(row), let handler = component.pointee.plugin?.pointee.handler else { return }
        body(handler.pointee.vtable.pointee, handler, HostParameter.id(row))
    }

    func beginGesture(row: Int) {
        held += 1
        edit(row: row) { table, handler, id in _ = table.begin_edit?(handler, id) }
    }
    func setParameter(row: Int, value: Double) {
        edit(row: row) { table, handler, id in _ = table.perform_edit?(handler, id, HostParameter.normalized(row, value)) }
    }
    func endGesture(row: Int) {
        held = max(0, held - 1)
        edit(row: row) { table, handler, id in _ = table.end_edit?(handler, id) }
    }
    func sendPoints(_ points: [CurvePoint], curvatures: [Double]) {
        component.pointee.plugin?.pointee.session.takeEditorPoints(points, curvatures: curvatures)
    }
    func requestPoints() { component.pointee.plugin?.pointee.session.sendCurveToEditor() }
    func loadTuningFile(path: String, keyboardMap: Bool) {
        component.pointee.plugin?.pointee.session.loadTuningFile(path, keyboardMap ? .keyboardMap : .scale)
    }
    /// IPlugFrame::resizeView of the view's frame (the host then calls onSize).
    func requestSize(width: Int, height: Int) -> Bool {
        view.map { toneshaper_vst3_resize_view($0.pointee.frame, $0.pointee.interface, Int32(width), Int32(height)) } ?? false
    }
    func builtInShapes() -> [BuiltInShape] { BuiltInShape.table(count: toneshaper_vst3_builtin_count(), toneshaper_vst3_builtin) }
    func currentDocument() -> [UInt8]? { component.pointee.plugin?.pointee.session.documentToSave() }
    /// A shape opened plays as a state does; the host reads the values again (restartComponent).
    func openDocument(_ document: [UInt8], what: String) -> Bool {
        guard let plugin = component.pointee.plugin, plugin.pointee.session.play(document: document, what: what) else { return false }
        plugin.pointee.tellHostIfValuesMoved(always: true)
        return true
    }
}

/// The view's tables. Calls out of turn (attached twice, a platform other than X11, a size
/// of 0) are refused and change nothing.
enum ViewTables {
    static let x11: StaticString = "X11EmbedWindowID"
    static func supported(_ type: UnsafePointer<CChar>?) -> Bool {
        toneshaper_plugin_equal(type, UnsafeRawPointer(x11.utf8Start).assumingMemoryBound(to: CChar.self)) != 0
    }

    nonisolated(unsafe) static let view: UnsafeMutablePointer<toneshaper_vst3_plug_view_vtable> = Tables.make(
        toneshaper_vst3_plug_view_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
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

    nonisolated(unsafe) static let timer: UnsafeMutablePointer<toneshaper_vst3_timer_handler_vtable> = Tables.make(
        toneshaper_vst3_timer_handler_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            on_timer: { this in View.of(this)?.pointee.follow() }))

    nonisolated(unsafe) static let events: UnsafeMutablePointer<toneshaper_vst3_event_handler_vtable> = Tables.make(
        toneshaper_vst3_event_handler_vtable(
            query_interface: toneshaper_vst3_query, add_ref: toneshaper_vst3_add_ref, release: toneshaper_vst3_release,
            on_fd_is_set: { this, _ in View.of(this)?.pointee.follow() }))
}

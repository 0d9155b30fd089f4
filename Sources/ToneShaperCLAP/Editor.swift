import CCLAP
import CPluginSupport
import Synchronization
import ToneShaperEditor
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// The editor window's link to the CLAP plugin (main thread): a parameter edit goes to the
/// audio side on the ``EditorChannel``'s queue, which applies it and reports it to the host
/// as output events, and the host is asked to flush so it gets there while nothing plays;
/// the points go to the engine through the inbox, taken here as a state is; a shape the window opens plays as a preset (and mark_dirty).
final class CLAPEditorLink: EditorLink {
    let plugin: UnsafeMutablePointer<Plugin>
    /// Edits the queue had no room for, sent at the next timer.
    var backlog: [(kind: EditorChannel.Kind, id: UInt32, value: Double)] = []

    init(plugin: UnsafeMutablePointer<Plugin>) { self.plugin = plugin }

    func beginGesture(row: Int) { send(.begin, row: row, value: 0) }
    func setParameter(row: Int, value: Double) { send(.value, row: row, value: value) }
    func endGesture(row: Int) { send(.end, row: row, value: 0) }

    func send(_ kind: EditorChannel.Kind, row: Int, value: Double) {
        guard ParameterTable.all.indices.contains(row) else { return }
        backlog.append((kind, UInt32(ParameterTable.all[row].number), value))
        sendBacklog()
    }

    /// The edits waiting, in order, as far as the queue has room; the host is asked for a
    /// flush (request_flush, never from the audio thread) when any went.
    func sendBacklog() {
        guard !backlog.isEmpty else { return }
        let channel = plugin.pointee.session.editorChannel
        var sent = 0
        while sent < backlog.count, channel.push(backlog[sent].kind, id: backlog[sent].id, value: backlog[sent].value) { sent += 1 }
        backlog.removeFirst(sent)
        let host = plugin.pointee.host
        if sent > 0, let params = plugin.pointee.hostParams, let flush = params.pointee.request_flush { flush(host) }
    }

    func sendPoints(_ points: [CurvePoint], curvatures: [Double]) { plugin.pointee.session.takeEditorPoints(points, curvatures: curvatures) }

    /// The curve goes into the outbox now; the window reads it at the next timer.
    func requestPoints() { plugin.pointee.session.sendCurveToEditor() }

    func loadTuningFile(path: String, keyboardMap: Bool) { plugin.pointee.session.loadTuningFile(path, keyboardMap ? .keyboardMap : .scale) }
    func builtInShapes() -> [BuiltInShape] { BuiltInShape.table(count: toneshaper_clap_builtin_count(), toneshaper_clap_builtin) }
    func currentDocument() -> [UInt8]? { plugin.pointee.session.documentToSave() }
    func openDocument(_ document: [UInt8], what: String) -> Bool {
        plugin.pointee.play(document: document, what: what) && toneshaper_clap_mark_dirty(plugin.pointee.host)
    }

    /// clap.gui's request_resize (the host then calls set_size, or leaves the size to the window).
    func requestSize(width: Int, height: Int) -> Bool { toneshaper_clap_request_resize(plugin.pointee.host, UInt32(width), UInt32(height)) }
}

/// clap.gui's state between create and destroy (main thread): the window (the editor
/// module's ``EmbeddedEditor``), the host's timer (and its watch on the window's display
/// connection, when it offers clap.posix-fd-support: events are then read as they come, not
/// at the next timer).
final class CLAPEditor {
    let plugin: UnsafeMutablePointer<Plugin>
    let link: CLAPEditorLink
    let timers: UnsafePointer<toneshaper_clap_host_timer_support>
    let timer: toneshaper_clap_id
    let editor: EmbeddedEditor
    /// The window's display connection, while the host watches it.
    var watched: Int32?

    init(plugin: UnsafeMutablePointer<Plugin>, timers: UnsafePointer<toneshaper_clap_host_timer_support>, timer: toneshaper_clap_id) {
        self.plugin = plugin
        self.timers = timers
        self.timer = timer
        link = CLAPEditorLink(plugin: plugin)
        editor = EmbeddedEditor(channel: plugin.pointee.session.editorChannel, values: plugin.pointee.session.params)
    }

    var window: EditorWindow? { editor.window }

    /// destroy: the timer stopped, the window closed.
    func close() {
        let host = plugin.pointee.host
        _ = timers.pointee.unregister_timer?(host, timer)
        if let watched, let fds = EditorExtensions.hostFDs(host) { _ = fds.pointee.unregister_fd?(host, watched) }
        watched = nil
        editor.close()
    }

    /// set_parent: the window, a child of the host's, not shown until show.
    func open(parent: UInt) -> Bool {
        guard editor.open(parent: parent, mapped: false, link: link), let made = editor.window else { return false }
        let host = plugin.pointee.host
        if let fds = EditorExtensions.hostFDs(host), fds.pointee.register_fd?(host, made.connection, UInt32(TONESHAPER_CLAP_POSIX_FD_READ)) == true {
            watched = made.connection
        }
        follow()
        return true
    }

    /// on_timer: the edits that waited, then what changed in the plugin (while the audio
    /// side has not taken the window's own edits, its values are older than the window's:
    /// they are read once it has).
    func follow() {
        guard editor.window != nil else { return }
        link.sendBacklog()
        editor.follow(valuesSettled: link.backlog.isEmpty && plugin.pointee.session.editorChannel.settled)
    }
}

/// clap.gui and clap.timer-support, handed out by get_extension. Calls the host makes out
/// of turn (set_parent before create, a second create, an API other than embedded X11, a
/// size of 0) are refused and change nothing.
enum EditorExtensions {
    nonisolated(unsafe) static let gui: UnsafeMutablePointer<toneshaper_clap_plugin_gui> = Extensions.make(
        toneshaper_clap_plugin_gui(
            is_api_supported: { _, api, floating in supported(api, floating) },
            get_preferred_api: { _, api, floating in
                guard let api, let floating else { return false }
                api.pointee = UnsafeRawPointer(x11.utf8Start).assumingMemoryBound(to: CChar.self)
                floating.pointee = false
                return true
            },
            create: { clap, api, floating in
                guard let shell = Shell.of(clap), let plugin = shell.pointee.plugin, shell.pointee.editor == nil, supported(api, floating) else {
                    return false
                }
                let host = shell.pointee.host
                guard
                    let timers = host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_TIMER_SUPPORT)?.assumingMemoryBound(
                        to: toneshaper_clap_host_timer_support.self)
                else {
                    plugin.pointee.session.services.log(.error, "the host offers no clap.timer-support, which the editor window needs; no window")
                    return false
                }
                var timer: toneshaper_clap_id = TONESHAPER_CLAP_INVALID_ID
                guard timers.pointee.register_timer?(host, EmbeddedEditor.period, &timer) == true else {
                    plugin.pointee.session.services.log(.error, "the host refused the editor window's timer; no window")
                    return false
                }
                shell.pointee.editor = CLAPEditor(plugin: plugin, timers: timers, timer: timer)
                return true
            },
            destroy: { clap in
                guard let shell = Shell.of(clap) else { return }
                shell.pointee.editor?.close()
                shell.pointee.editor = nil
            },
            set_scale: { clap, scale in
                // Only before the window is made, at a scale it can draw at.
                guard let editor = Shell.of(clap)?.pointee.editor, editor.window == nil, EditorWindow.usableScale(scale) == scale else {
                    return false
                }
                editor.editor.scale = scale
                return true
            },
            get_size: { clap, width, height in
                guard let editor = Shell.of(clap)?.pointee.editor, let width, let height else { return false }
                let size = editor.editor.currentSize
                width.pointee = UInt32(size.width)
                height.pointee = UInt32(size.height)
                return true
            },
            can_resize: { clap in Shell.of(clap)?.pointee.editor != nil },
            get_resize_hints: { clap, hints in
                guard Shell.of(clap)?.pointee.editor != nil, let hints else { return false }
                hints.pointee = toneshaper_clap_gui_resize_hints(
                    can_resize_horizontally: true, can_resize_vertically: true, preserve_aspect_ratio: false, aspect_ratio_width: 0,
                    aspect_ratio_height: 0)
                return true
            },
            adjust_size: { clap, width, height in
                guard let editor = Shell.of(clap)?.pointee.editor, let width, let height else { return false }
                let size = editor.editor.adjusted(Int(width.pointee), Int(height.pointee))
                width.pointee = UInt32(size.width)
                height.pointee = UInt32(size.height)
                return true
            },
            set_size: { clap, width, height in
                guard let editor = Shell.of(clap)?.pointee.editor else { return false }
                return editor.editor.resize(Int(width), Int(height))
            },
            set_parent: { clap, window in
                guard let editor = Shell.of(clap)?.pointee.editor, let window, supported(window.pointee.api, false)
                else { return false }
                return editor.open(parent: UInt(window.pointee.x11))
            },
            // Floating windows only; this window is embedded.
            set_transient: { _, _ in false },
            suggest_title: { _, _ in },
            show: { clap in
                guard let window = Shell.of(clap)?.pointee.editor?.window else { return false }
                window.show()
                return true
            },
            hide: { clap in
                guard let window = Shell.of(clap)?.pointee.editor?.window else { return false }
                window.hide()
                return true
            }))

    nonisolated(unsafe) static let timerSupport: UnsafeMutablePointer<toneshaper_clap_plugin_timer_support> = Extensions.make(
        toneshaper_clap_plugin_timer_support(on_timer: { clap, timer in
            guard let editor = Shell.of(clap)?.pointee.editor, editor.timer == timer else { return }
            editor.follow()
        }))

    nonisolated(unsafe) static let posixFDSupport: UnsafeMutablePointer<toneshaper_clap_plugin_posix_fd_support> = Extensions.make(
        toneshaper_clap_plugin_posix_fd_support(on_fd: { clap, fd, _ in
            guard let editor = Shell.of(clap)?.pointee.editor, editor.watched == fd else { return }
            editor.follow()
        }))

    /// The host's clap.posix-fd-support, if it offers it.
    static func hostFDs(_ host: UnsafePointer<toneshaper_clap_host>) -> UnsafePointer<toneshaper_clap_host_posix_fd_support>? {
        host.pointee.get_extension?(host, TONESHAPER_CLAP_EXT_POSIX_FD_SUPPORT).map {
            UnsafePointer($0.assumingMemoryBound(to: toneshaper_clap_host_posix_fd_support.self))
        }
    }

    static let x11: StaticString = "x11"

    static func supported(_ api: UnsafePointer<CChar>?, _ floating: Bool) -> Bool {
        !floating && toneshaper_plugin_equal(api, UnsafeRawPointer(x11.utf8Start).assumingMemoryBound(to: CChar.self)) != 0
    }
}

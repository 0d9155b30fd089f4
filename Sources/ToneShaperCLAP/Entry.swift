import CCLAP
import ToneShaperPlugin

/// What a host's handle points to: the instance's CLAP struct (first, so the handle is
/// its address), the host, and the plugin once init has made it.
struct Shell {
    var clap: toneshaper_clap_plugin
    let host: UnsafePointer<toneshaper_clap_host>
    let stereo: Bool
    var plugin: UnsafeMutablePointer<Plugin>?
    /// The editor window's side of clap.gui, between the host's create and destroy.
    var editor: CLAPEditor?

    static func of(_ clap: UnsafePointer<toneshaper_clap_plugin>?) -> UnsafeMutablePointer<Shell>? {
        clap?.pointee.plugin_data?.assumingMemoryBound(to: Shell.self)
    }

    static func plugin(_ clap: UnsafePointer<toneshaper_clap_plugin>?) -> UnsafeMutablePointer<Plugin>? { of(clap)?.pointee.plugin }
}

/// The factory's create_plugin (entry.c): an instance that does nothing until init.
@_cdecl("toneshaper_clap_create")
public func create(_ host: UnsafePointer<toneshaper_clap_host>?, _ stereo: Int32) -> UnsafePointer<toneshaper_clap_plugin>? {
    guard let host else { return nil }
    let shell = UnsafeMutablePointer<Shell>.allocate(capacity: 1)
    shell.initialize(
        to: Shell(
            clap: toneshaper_clap_plugin(
                desc: toneshaper_clap_descriptor(stereo), plugin_data: UnsafeMutableRawPointer(shell), init: Functions.initialize,
                destroy: Functions.destroy, activate: Functions.activate, deactivate: Functions.deactivate,
                start_processing: Functions.startProcessing, stop_processing: Functions.stopProcessing, reset: Functions.reset,
                process: Functions.process, get_extension: Functions.getExtension, on_main_thread: Functions.onMainThread),
            host: host, stereo: stereo != 0, plugin: nil, editor: nil))
    return UnsafeRawPointer(shell).assumingMemoryBound(to: toneshaper_clap_plugin.self)
}

/// The plugin's functions, as C function pointers.
enum Functions {
    static let initialize: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Bool = { clap in
        guard let shell = Shell.of(clap) else { return false }
        if shell.pointee.plugin == nil { shell.pointee.plugin = Plugin.make(host: shell.pointee.host, stereo: shell.pointee.stereo) }
        return true
    }

    static let destroy: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Void = { clap in
        guard let shell = Shell.of(clap) else { return }
        // A host that destroys the plugin with its window open: the window goes first.
        shell.pointee.editor?.close()
        shell.pointee.editor = nil
        if let plugin = shell.pointee.plugin { Plugin.destroy(plugin) }
        shell.deinitialize(count: 1)
        shell.deallocate()
    }

    static let activate: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?, Double, UInt32, UInt32) -> Bool = { clap, rate, _, maximum in
        Shell.plugin(clap)?.pointee.activate(sampleRate: rate, maximumBlock: Int(maximum)) ?? false
    }

    static let deactivate: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Void = { clap in
        Shell.plugin(clap)?.pointee.session.active = false
    }

    static let startProcessing: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Bool = { _ in true }
    static let stopProcessing: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Void = { _ in }
    static let reset: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Void = { _ in }
    static let onMainThread: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?) -> Void = { clap in
        Shell.plugin(clap)?.pointee.onMainThread()
    }

    static let process: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?, UnsafePointer<toneshaper_clap_process>?) -> Int32 = {
        clap, process in processInstance(clap, process)
    }

    static let getExtension: @convention(c) (UnsafePointer<toneshaper_clap_plugin>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { _, id in
        Extensions.find(id)
    }
}

/// process(), under the real-time proof from here down.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
private func processInstance(_ clap: UnsafePointer<toneshaper_clap_plugin>?, _ process: UnsafePointer<toneshaper_clap_process>?) -> Int32 {
    guard let process, let data = clap?.pointee.plugin_data, let plugin = data.assumingMemoryBound(to: Shell.self).pointee.plugin else {
        return Int32(TONESHAPER_CLAP_PROCESS_ERROR)
    }
    return plugin.pointee.process(process)
}

/// params.flush, which runs on the audio thread while the plugin is active: under the proof too.
#if REALTIME_PROOF
    @_noLocks @_noAllocation
#endif
func flushInstance(
    _ clap: UnsafePointer<toneshaper_clap_plugin>?, _ input: UnsafePointer<toneshaper_clap_input_events>?,
    _ output: UnsafePointer<toneshaper_clap_output_events>?
) {
    guard let data = clap?.pointee.plugin_data, let plugin = data.assumingMemoryBound(to: Shell.self).pointee.plugin else { return }
    plugin.pointee.flush(input, output)
}

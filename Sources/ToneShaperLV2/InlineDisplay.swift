import CLV2
import ToneShaperLV2Layout
import ToneShaperPlugin

/// Ardour's inline display: a picture of the curve in the mixer strip. The host asks for
/// it (render, off the audio thread) after the plugin says it changed (queue_draw, which
/// the host allows on the audio thread). The pixels and the surface that describes them
/// are allocated with the instance (`CurvePicture`), so the host's call allocates nothing.
struct InlineDisplay {
    let picture = CurvePicture()
    let surface: UnsafeMutablePointer<toneshaper_inline_display_surface> = {
        let surface = UnsafeMutablePointer<toneshaper_inline_display_surface>.allocate(capacity: 1)
        surface.initialize(to: toneshaper_inline_display_surface(data: nil, width: 0, height: 0, stride: 0))
        return surface
    }()
    /// Raised by the worker when the curve changed; the audio thread then asks for a redraw.
    let changed = ChangeFlag(raised: true)
    /// The host's queue_draw feature, if it has one.
    var queue: UnsafePointer<toneshaper_inline_display_queue>?

    /// Takes the host's queue_draw feature, if it offers it.
    mutating func connect(_ features: LV2FeatureList) {
        queue = features.data("http://harrisonconsoles.com/lv2/inlinedisplay#queue_draw").map {
            UnsafePointer($0.assumingMemoryBound(to: toneshaper_inline_display_queue.self))
        }
    }

    func free() {
        picture.free()
        surface.deallocate()
        changed.free()
    }

    /// The worker's: the curve changed.
    func curveChanged() { changed.raise() }

    /// The audio thread's: asks the host for a redraw when the curve changed.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    func queueDrawIfChanged() {
        guard let queue, let draw = queue.pointee.queue_draw else { return }
        guard changed.take() else { return }
        _unsafePerformance { draw(queue.pointee.handle) }
    }

    /// The interface handed out by extension_data.
    nonisolated(unsafe) static let interface: UnsafeMutablePointer<toneshaper_inline_display_interface> = {
        let interface = UnsafeMutablePointer<toneshaper_inline_display_interface>.allocate(capacity: 1)
        interface.initialize(to: toneshaper_inline_display_interface(render: render))
        return interface
    }()

    /// The host's call: the picture `width` wide and at most `maxHeight` high (two fifths of
    /// its width, within the picture's maximum).
    static let render: @convention(c) (LV2_Handle?, UInt32, UInt32) -> UnsafeMutablePointer<toneshaper_inline_display_surface>? = {
        instance, width, maxHeight in
        guard let instance, width > 0, maxHeight > 0 else { return nil }
        let plugin = instance.assumingMemoryBound(to: Plugin.self)
        let display = plugin.pointee.inline
        let w = min(Int(width), CurvePicture.maximumWidth)
        let h = min(Int(maxHeight), max(w * 2 / 5, 16), CurvePicture.maximumHeight)
        let pixels = plugin.pointee.engine.drawCurve(into: display.picture, width: w, height: h)
        display.surface.pointee = toneshaper_inline_display_surface(
            data: UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt8.self), width: Int32(w), height: Int32(h), stride: Int32(w * 4))
        return display.surface
    }
}

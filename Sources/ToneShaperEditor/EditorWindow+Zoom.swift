import CEditor

extension EditorWindow {
    /// The window's size at its scale (the host's scale factor times the zoom).
    public var zoomedSize: (width: Int, height: Int) {
        (Int(EditorWindow.baseWidth * scale), Int(EditorWindow.baseHeight * scale))
    }

    /// The zoom control pressed: the next zoom (100, 125, 150, 200 %, then 100 % again), and
    /// the host asked for the window's size at it. A host that takes the size gives it to
    /// the window (CLAP's set_size, VST 3's onSize, suil resizing an LV2 UI), at once or
    /// later; when it has not by the time it answers yes, the window takes the size itself,
    /// as CLAP allows ("the host doesn't have to call set_size") and plugins do in LV2 and
    /// VST 3 hosts that resize later, so the host's own later call finds it done. A size
    /// the host gave during the request is kept, not overridden. A host that says no keeps
    /// its size, and the window draws larger within it.
    func stepZoom() {
        let next = EditorWindow.zooms.firstIndex { $0 > zoom + 1e-9 } ?? 0
        zoom = EditorWindow.zooms[next]
        needsDraw = true
        let wanted = zoomedSize
        let before = (width: width, height: height)
        let taken = link.requestSize(width: wanted.width, height: wanted.height)
        if trace {
            toneshaper_ui_stderr(
                "zoom " + String(Int((zoom * 100).rounded())) + " %: asked the host for " + String(wanted.width) + "x" + String(wanted.height)
                    + (taken ? ", taken" : ", refused"))
        }
        guard taken, width == before.width, height == before.height, before != wanted else { return }
        setSize(wanted.width, wanted.height)
    }
}

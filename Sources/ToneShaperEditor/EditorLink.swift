import ToneShaperModel
import ToneShaperParameters

/// How the editor window reaches its plugin, whatever the format: the plugin's shell (the
/// LV2 UI, the CLAP plugin's clap.gui) implements it over its own messages. Parameters are
/// named by their row of ``ParameterTable/all``; a change made with the mouse comes between
/// ``beginGesture(row:)`` and ``endGesture(row:)`` (a click or a wheel step too, as a gesture
/// of one value), so a host records one automation pass and one undo step for it.
///
/// The other way, the shell calls the window: ``EditorWindow/parameterChanged(row:value:)``,
/// ``EditorWindow/pointsChanged(_:)``, ``EditorWindow/playheadMoved(_:)``,
/// ``EditorWindow/idle()``, ``EditorWindow/setSize(_:_:)`` (the host's answer to
/// ``requestSize(width:height:)`` too). What the shell tells the window
/// is shown and never sent back, so there is no echo loop.
///
/// Class-bound: the window holds it as `any EditorLink`, which Embedded Swift allows of a
/// class-bound protocol only.
public protocol EditorLink: AnyObject {
    /// The user took hold of a control (the mouse button went down on it).
    func beginGesture(row: Int)
    /// A control's new value, within the row's range.
    func setParameter(row: Int, value: Double)
    /// The user let go of the control.
    func endGesture(row: Int)
    /// The curve as edited (seconds within the cycle, Hz as heard) and each segment's
    /// curvature (one a segment; empty: all straight), for the plugin to play.
    func sendPoints(_ points: [CurvePoint], curvatures: [Double])
    /// The window wants the curve the plugin plays (it answers through
    /// ``EditorWindow/pointsChanged(_:)``, now or later).
    func requestPoints()
    /// The window wants this size (its zoom control changed the zoom) and asks the host, as
    /// the format's convention says (CLAP's request_resize, VST 3's IPlugFrame::resizeView,
    /// LV2's ui:resize). True when the host took it: it gives the window the size through
    /// ``EditorWindow/setSize(_:_:)`` now or later (or the window takes it itself when the
    /// host has not); false when it keeps its size (the window is then drawn larger in it).
    func requestSize(width: Int, height: Int) -> Bool
    /// The user chose a Scala file from the window's list of tunings: the plugin reads and
    /// plays it (a `.kbm` over the scale there is) and tells the window the tuning then.
    func loadTuningFile(path: String, keyboardMap: Bool)
}

extension EditorLink {
    /// A shell that loads no tuning files from the window ignores the choice.
    public func loadTuningFile(path: String, keyboardMap: Bool) {}
}

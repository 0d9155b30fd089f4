/// The curvature a segment's handle gives as it is dragged up or down (Vital's curve
/// handle): the handle follows the pointer, so dragging it up raises the segment's middle.
/// On a rising segment a higher middle is an earlier rise (c < 0), on a falling one a later
/// fall (c > 0). ``pixelsPerUnit`` pixels of drag (times the window's scale) change c by 1,
/// so the whole range -1...1 is two of them.
public enum CurvatureDrag {
    /// The drag, in pixels at scale 1, that changes the curvature by 1.
    public static let pixelsPerUnit = 100.0

    /// The curvature after dragging the handle `dragUp` pixels up (negative: down) from where
    /// it was pressed with curvature `start`, on a segment that `rises` (ends higher than it
    /// starts; a flat segment counts as rising), at `scale`. Clamped to -1...1.
    public static func curvature(start: Double, dragUp: Double, rises: Bool, scale: Double = 1) -> Double {
        guard dragUp.isFinite, scale > 0 else { return start }
        let change = dragUp / (pixelsPerUnit * scale)
        return min(max(start + (rises ? -change : change), -1), 1)
    }
}

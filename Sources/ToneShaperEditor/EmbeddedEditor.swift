import Synchronization
import ToneShaperModel
import ToneShaperPlugin

/// The editor window as a plugin shows it inside a host's window (CLAP's clap.gui, VST 3's
/// IPlugView), on the main thread: the scale and size asked for before the window exists,
/// the window once the host gives it a parent, and what it last learned of the plugin. The
/// shell drives it from the host's timer (``follow(valuesSettled:)``); the plugin's values,
/// its curve and its playhead are read without a lock, from ``HostParameters`` and the
/// ``EditorChannel``.
public final class EmbeddedEditor {
    public let channel: EditorChannel
    let values: HostParameters
    public private(set) var window: EditorWindow?
    public var scale = 1.0
    /// The size asked for before the window was made.
    public var size: (width: Int, height: Int)?
    /// Each parameter's value as the window was last told it.
    var shown: [Double]
    var playhead = Double.nan.bitPattern
    /// The revision of the tuning the window shows (-1: none shown yet).
    var tuningRevision = -1

    /// How often a host's timer should call ``follow(valuesSettled:)`` (about 50 times a second).
    public static let period: UInt32 = 20

    public init(channel: EditorChannel, values: HostParameters) {
        self.channel = channel
        self.values = values
        shown = [Double](repeating: .nan, count: values.count)
    }

    /// The size the window has, or will have when it is made.
    public var currentSize: (width: Int, height: Int) {
        if let window { return (window.width, window.height) }
        return size ?? (Int(EditorWindow.baseWidth * scale), Int(EditorWindow.baseHeight * scale))
    }

    /// A size the window can take, near the one asked for: at least the smallest its layout
    /// fits in at its scale, the window's zoom included (so a host's adjust_size or
    /// checkSizeConstraint agrees with the size the zoom control asks for).
    public func adjusted(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        let scale = window?.scale ?? self.scale
        let low = (Int(EditorWindow.minimumWidth * scale), Int(EditorWindow.minimumHeight * scale))
        return (min(max(width, low.0), EditorWindow.maximumSide), min(max(height, low.1), EditorWindow.maximumSide))
    }

    /// Whether the window can be (or be made) `width` × `height`: remembered until it is made.
    public func resize(_ width: Int, _ height: Int) -> Bool {
        guard width > 0, height > 0, width <= EditorWindow.maximumSide, height <= EditorWindow.maximumSide else { return false }
        if let window { return window.setSize(width, height) }
        size = (width, height)
        return true
    }

    /// The window, a child of the host's `parent`; false when there is one already or it
    /// cannot be made.
    public func open(parent: UInt, mapped: Bool, link: any EditorLink) -> Bool {
        guard window == nil, parent != 0 else { return false }
        let size = currentSize
        guard let made = EditorWindow(parent: parent, scale: scale, width: size.width, height: size.height, mapped: mapped, link: link)
        else { return false }
        window = made
        tuningRevision = -1
        return true
    }

    /// The window closed (its X resources let go).
    public func close() {
        window?.letGo()
        window = nil
    }

    /// At the host's timer: what changed in the plugin since the last one (values, unless
    /// the window's own edits have not reached the plugin yet, the curve, the tuning, the playhead), then
    /// the window's events and drawing.
    public func follow(valuesSettled: Bool) {
        guard let window else { return }
        if valuesSettled {
            for row in 0..<shown.count {
                let value = values.values[row]
                guard value != shown[row] else { continue }
                shown[row] = value
                window.parameterChanged(row: row, value: value)
            }
        }
        if channel.outbox.pointee.beginRead() {
            window.pointsChanged(UnsafeBufferPointer(start: channel.outbox.pointee.numbers, count: channel.outbox.pointee.count))
            channel.outbox.pointee.endRead(taken: true)
        }
        let revision = channel.tuning.pointee.revision
        if revision != tuningRevision {
            tuningRevision = revision
            window.tuningChanged(channel.tuning.pointee.read())
        }
        let bits = channel.playhead.pointee.load(ordering: .relaxed)
        if bits != playhead {
            playhead = bits
            let phase = Double(bitPattern: bits)
            if phase.isFinite { window.playheadMoved(phase) }
        }
        window.idle()
    }
}

import ToneShaperParameters

/// The plugin's LV2 ports, laid out from the parameter table by lv2core's rule for a
/// compatible change: ports never move, and a port added goes after every existing one.
///
/// So the rows of the first release (``ParameterSpec/addedIn`` equal to
/// ``ParameterTable/firstRelease``) are the control ports 2 + number, the audio outputs come
/// after them (one for the mono plugin, two for the stereo one), and every row added since
/// comes after the audio outputs, in the order of its version and then its number. A
/// project saved with an earlier version finds each port where it left it; a host that
/// stores parameters by index (Qtractor) included.
///
/// The Turtle generator and the LV2 shell both read this, so the description and the
/// binary cannot disagree.
public enum LV2PortLayout {
    /// The atom input (MIDI, time:Position, patch messages).
    public static let control: UInt32 = 0
    /// The atom output (patch:Set replies).
    public static let notify: UInt32 = 1
    /// Where the first release's control ports start.
    public static let firstControl: UInt32 = 2

    /// One port of the layout.
    public enum Port: Equatable, Sendable {
        case control
        case notify
        /// The control port of the table's row at this position.
        case parameter(row: Int)
        /// Audio output `channel` (0 left or mono, 1 right).
        case audio(channel: Int)
    }

    /// Every port, by index.
    public static func ports(stereo: Bool) -> [Port] {
        let rows = ParameterTable.all.indices
        let released = rows.filter { ParameterTable.all[$0].addedIn == ParameterTable.firstRelease }
            .sorted { ParameterTable.all[$0].number < ParameterTable.all[$1].number }
        let added = rows.filter { ParameterTable.all[$0].addedIn != ParameterTable.firstRelease }
            .sorted {
                (ParameterTable.all[$0].addedIn, ParameterTable.all[$0].number) < (ParameterTable.all[$1].addedIn, ParameterTable.all[$1].number)
            }
        return [.control, .notify] + released.map { .parameter(row: $0) } + (0..<(stereo ? 2 : 1)).map { .audio(channel: $0) }
            + added.map { .parameter(row: $0) }
    }

    /// The table's row of each port, by index (nil: a port that is no control).
    public static func rows(stereo: Bool) -> [Int?] {
        ports(stereo: stereo).map { port in
            guard case .parameter(let row) = port else { return nil }
            return row
        }
    }

    /// The audio outputs' port indices (left or mono, then right).
    public static func audioPorts(stereo: Bool) -> [UInt32] {
        let layout = ports(stereo: stereo)
        return layout.indices.filter { if case .audio = layout[$0] { true } else { false } }.map { UInt32($0) }
    }

    /// The plugin's minor version (lv2:minorVersion): the version of the newest row. Even,
    /// as lv2core asks of a release.
    public static var minorVersion: Int { ParameterTable.all.map { $0.addedIn }.max() ?? ParameterTable.firstRelease }

    /// lv2:microVersion: 0 for a release (lv2core: an even minor version with any micro).
    public static let microVersion = 0
}

/// The plugin's URIs, for good: hosts save projects by them.
public enum LV2Identity {
    public static let monoURI: StaticString = "urn:toneshaper:instrument"
    public static let stereoURI: StaticString = "urn:toneshaper:instrument-stereo"
    /// The state property: the whole document as JSON text (atom:String).
    public static let documentURI: StaticString = "urn:toneshaper:document"
    /// The file parameter: patch:Set of it with an atom:Path loads a document.
    public static let fileURI: StaticString = "urn:toneshaper:file"
    /// The tuning's scale file: patch:Set of it with an atom:Path loads a Scala `.scl`
    /// (the state keeps its text, in the document, never the path).
    public static let scaleFileURI: StaticString = "urn:toneshaper:tuning-scale"
    /// The tuning's keyboard map file: patch:Set of it with an atom:Path loads a `.kbm`.
    public static let keyboardMapFileURI: StaticString = "urn:toneshaper:tuning-map"
    /// The curve's points: patch:Set of it with an atom:Vector of atom:Double (t0, f0, t1,
    /// f1, ...) between the plugin and its editor window.
    public static let pointsURI: StaticString = "urn:toneshaper:points"
    /// Where the cycle is now (atom:Float, 0..<1): the plugin tells its editor window.
    public static let playheadURI: StaticString = "urn:toneshaper:playhead"
    /// The tuning playing (atom:String, the core's `TuningSummary` text): the plugin tells its
    /// editor window when it changes and when the window asks (patch:Get).
    public static let tuningURI: StaticString = "urn:toneshaper:tuning"
    /// A snapshot of the document playing (atom:Path holding a name, not a path: the core's
    /// `DocumentSnapshot`): the editor window asks for one before it opens a shape, so that
    /// its undo can reopen the document from before.
    public static let snapshotURI: StaticString = "urn:toneshaper:snapshot"
    /// The editor window (ui:X11UI) of both plugins.
    public static let uiURI: StaticString = "urn:toneshaper:ui"
    /// Its shared object in the bundle.
    public static let uiBinary: StaticString = "toneshaper_ui.so"
}

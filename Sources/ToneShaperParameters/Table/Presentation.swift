/// Where a parameter is shown: the groups every front end sorts its controls into (LV2's
/// port groups, the editors' sections, the manual's tables).
public enum ParameterGroup: String, Sendable, CaseIterable {
    /// The curve's frame: its range, its length, its grid.
    case shape
    /// How it sounds: wave, scaling, echo, gain, tuning.
    case sound
    /// How it is played: MIDI, voices, transport.
    case playing

    /// The group's name as a host shows it.
    public var name: String {
        switch self {
        case .shape: return "Shape"
        case .sound: return "Sound"
        case .playing: return "MIDI"
        }
    }
}

/// How a row is presented, as columns of the table: every front end that shows parameters
/// (the LV2 description, the CLAP parameters, the plugin's editor window, the browser
/// editor through OSCQuery, the manual) reads these and decides none of it itself.
public struct Presentation: Sendable {
    public let group: ParameterGroup
    /// The name a host or an editor shows ("Min frequency"): by default the option's words
    /// (``ParameterSpec/displayName(flag:)``).
    public let name: String?
    /// The rows a host with little room shows first (LV2's pprops:displayPriority), most
    /// important highest; nil: no priority.
    public let priority: Int?
    /// The row's place among the controls the editors show beside the curve, from 0; nil:
    /// not shown there (the host's generic controls still are).
    public let editorPlace: Int?
    /// A bar over a logarithmic scale: ranges over several decades (frequencies, lengths,
    /// grids), where equal steps of the hand should be equal ratios.
    public let logarithmic: Bool
    /// Whether a host may modulate it (CLAP's per-voice and global modulation) without
    /// changing the saved value: a ramped row a modulator moves usefully.
    public let modulatable: Bool
    /// The step of a control that moves in steps (an entry field's, a knob's fine step);
    /// nil: the kind's own (1 for whole numbers and choices, any value for reals).
    public let step: Double?

    public init(
        _ group: ParameterGroup, name: String? = nil, priority: Int? = nil, editorPlace: Int? = nil, logarithmic: Bool = false,
        modulatable: Bool = false, step: Double? = nil
    ) {
        self.group = group
        self.name = name
        self.priority = priority
        self.editorPlace = editorPlace
        self.logarithmic = logarithmic
        self.modulatable = modulatable
        self.step = step
    }
}

extension ParameterSpec {
    /// The name every front end shows: the presentation's, or else the option's words with
    /// the first in capitals ("min-frequency" is "Min frequency").
    public var displayName: String { presentation.name ?? ParameterSpec.displayName(flag: flag) }

    /// The option's words as a name: the one rule, for every row without a name of its own.
    public static func displayName(flag: String) -> String {
        flag.prefix(1).uppercased() + String(flag.dropFirst().map { $0 == "-" ? " " : $0 })
    }

    /// Whether the row moves in whole steps (a count, a note, a choice, a toggle).
    public var isStepped: Bool {
        if case .real = kind { return false }
        return true
    }

    /// The step a control takes: the presentation's, or 1 for a stepped row; nil: any value.
    public var step: Double? { presentation.step ?? (isStepped ? 1 : nil) }

    /// Whether the editors show it beside the curve.
    public var shownInEditors: Bool { presentation.editorPlace != nil }
}

extension ParameterTable {
    /// The rows the editors show beside the curve, in their places.
    public static var editorRows: [ParameterSpec] {
        all.filter { $0.shownInEditors }.sorted { $0.presentation.editorPlace! < $1.presentation.editorPlace! }
    }

    /// The rows a host may modulate.
    public static var modulatableRows: [ParameterSpec] { all.filter { $0.presentation.modulatable } }
}

import ToneShaperModel

/// Which of the tuning's two Scala files a host's file parameter names (LV2's
/// `patch:writable` scale and keyboard map).
public enum TuningFileKind: Sendable {
    /// A `.scl` scale: it replaces the scale, any keyboard map stays.
    case scale
    /// A `.kbm` keyboard mapping over the scale there is.
    case keyboardMap

    var name: String { self == .scale ? "scale file" : "keyboard map file" }
}

extension PluginEngine {
    /// On the work thread: the Scala file at `path` (NUL-terminated bytes, as a host's
    /// atom:Path carries it) read and played, its text kept in the document (the state
    /// carries the text, never the path). False (logged, the tuning unchanged) when the file
    /// cannot be read or is refused, with the line that did not read.
    public func loadTuning(_ kind: TuningFileKind, path: UnsafeRawBufferPointer, answer: some PluginAnswer) -> Bool {
        guard let base = path.baseAddress, path.count >= 2, path[path.count - 1] == 0 else {
            host.log(.error, "a " + kind.name + " path reached the work thread without its NUL; ignored")
            return false
        }
        let bytes: [UInt8]
        do throws(DocumentFile.Refusal) {
            bytes = try DocumentFile.read(base.assumingMemoryBound(to: CChar.self))
        } catch {
            host.log(.error, "the " + kind.name + " " + error.reason + "; the tuning is unchanged")
            return false
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let result = BuilderSide.with(side) { side -> (InstrumentResponse?, String?) in
            let current = side.builder.shape.tuning
            let tuning: Tuning
            do throws(TuningError) {
                switch kind {
                case .scale:
                    tuning = try Tuning(scale: text, keyboardMap: current?.keyboardMapText)
                case .keyboardMap:
                    guard let scale = current?.scaleText else {
                        return (nil, "a keyboard map maps a scale's degrees: load a scale file first; the tuning is unchanged")
                    }
                    tuning = try Tuning(scale: scale, keyboardMap: text)
                }
            } catch {
                return (nil, "the " + kind.name + " was refused, the tuning is unchanged: " + error.description)
            }
            return (side.builder.setTuning(tuning), nil)
        }
        if let refusal = result.1 {
            host.log(.error, refusal)
            return false
        }
        if let response = result.0 { respond(response, answer) }
        host.log(.note, kind == .scale ? "scale loaded" : "keyboard map loaded")
        return true
    }

    /// Off the audio thread: the tuning playing (nil: 12-TET), for an editor's display.
    public func tuning() -> Tuning? { BuilderSide.with(side) { side in side.builder.shape.tuning } }
}

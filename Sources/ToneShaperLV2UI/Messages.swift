import CLV2UI
import ToneShaperLV2Layout
import ToneShaperModel
import ToneShaperParameters
import ToneShaperPlugin

/// What a message from the plugin said, if the editor understood it.
enum PluginMessage {
    /// The curve: t0, f0, t1, f1, ... (not yet checked against the cycle).
    case points(UnsafeBufferPointer<Double>)
    /// Where the cycle is now, 0..<1.
    case playhead(Double)
    /// The tuning playing.
    case tuning(TuningSummary)
    /// The document file the plugin loaded (or was asked which plays).
    case file(String)
}

/// Reads and writes the atoms the editor and the plugin exchange, by hand (no forge: the
/// messages are few and fixed). Every read checks each size against the bytes given.
enum UIAtoms {
    /// patch:Get with no property: the plugin answers with the curve.
    static func get(_ u: LV2URIDs) -> [UInt32] {
        [8, u.atomObject, 0, u.patchGet]
    }

    /// patch:Set of the points property to an atom:Vector of atom:Double (t0, f0, ..., and
    /// the curvatures after a NaN when a segment is curved: ``PluginPoints/flat(_:curvatures:)``).
    static func setPoints(_ u: LV2URIDs, _ points: [CurvePoint], curvatures: [Double]) -> [UInt8] {
        let numbers = PluginPoints.flat(points, curvatures: curvatures)
        let count = numbers.count
        let objectSize = PatchSetAtom.bodySize(valueSize: 8 + 8 * count)
        var bytes = [UInt8](repeating: 0, count: 8 + objectSize)
        bytes.withUnsafeMutableBytes { raw in
            let b = raw.baseAddress!
            b.storeBytes(of: UInt32(objectSize), as: UInt32.self)
            b.storeBytes(of: u.atomObject, toByteOffset: 4, as: UInt32.self)
            // patch:value: a vector of doubles (its element size and type, then the numbers)
            let vector = PatchSetAtom.write(at: b + 8, property: u.points, valueType: u.atomVector, valueSize: 8 + 8 * count, u)
            vector.storeBytes(of: UInt32(8), as: UInt32.self)
            vector.storeBytes(of: u.atomDouble, toByteOffset: 4, as: UInt32.self)
            for (k, number) in numbers.enumerated() { vector.storeBytes(of: number, toByteOffset: 8 + 8 * k, as: Double.self) }
        }
        return bytes
    }

    /// The message in `atom` (`size` bytes, header included), or nil: anything malformed,
    /// of another type or property, or cut short is refused here.
    static func read(_ u: LV2URIDs, _ atom: UnsafeRawPointer, size: Int) -> PluginMessage? {
        guard size >= 16 else { return nil }
        let bodySize = Int(atom.loadUnaligned(as: UInt32.self))
        let type = atom.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        guard type == u.atomObject || type == u.atomBlank, bodySize >= 8, bodySize <= size - 8 else { return nil }
        guard let object = AtomObject(UnsafeRawBufferPointer(start: atom + 8, count: bodySize)), object.otype == u.patchSet,
            let value = object.property(u.patchValue), let body = value.body.baseAddress
        else { return nil }
        var property: UInt32 = 0
        if let named = object.property(u.patchProperty), named.type == u.atomURID, named.body.count >= 4 {
            property = named.body.loadUnaligned(as: UInt32.self)
        }
        if property == u.playhead { return AtomObject.number(value, u).map { .playhead($0) } }
        if property == u.tuning {  // an atom:String: its text, then a NUL
            guard value.type == u.atomString, let end = value.body.firstIndex(of: 0) else { return nil }
            return TuningSummary(text: String(decoding: value.body[..<end], as: UTF8.self)).map { .tuning($0) }
        }
        if property == u.file {  // an atom:Path: the path, then a NUL
            guard value.type == u.atomPath, let end = value.body.firstIndex(of: 0) else { return nil }
            return .file(String(decoding: value.body[..<end], as: UTF8.self))
        }
        guard property == u.points, value.type == u.atomVector, value.body.count >= 8 else { return nil }
        let childSize = body.loadUnaligned(as: UInt32.self)
        let childType = body.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        guard childSize == 8, childType == u.atomDouble else { return nil }
        let count = (value.body.count - 8) / 8
        // Pairs, and the curvatures after a NaN: the window checks them (PluginPoints.curve).
        guard count >= 2 else { return nil }
        // The host's buffer may not be aligned for Double: the numbers are read through a copy.
        return .points(UnsafeBufferPointer(start: nil, count: 0)).withNumbers(body + 8, count: count)
    }
}

extension PluginMessage {
    /// The numbers copied into an aligned buffer that lives until the next message.
    fileprivate func withNumbers(_ source: UnsafeRawPointer, count: Int) -> PluginMessage {
        NumberScratch.shared.fill(source, count: count)
        return .points(UnsafeBufferPointer(start: NumberScratch.shared.numbers, count: count))
    }
}

/// The aligned copy of the last points message's numbers (the editor is used from the
/// host's UI thread only).
final class NumberScratch {
    nonisolated(unsafe) static let shared = NumberScratch()
    private(set) var numbers: UnsafeMutablePointer<Double>?
    private var capacity = 0

    func fill(_ source: UnsafeRawPointer, count: Int) {
        if count > capacity {
            numbers?.deallocate()
            numbers = .allocate(capacity: count)
            capacity = count
        }
        UnsafeMutableRawPointer(numbers!).copyMemory(from: source, byteCount: count * 8)
    }
}

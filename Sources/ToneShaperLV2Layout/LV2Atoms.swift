// The atoms the plugin and its editor window exchange (patch:Set and patch:Get objects),
// read and written by hand, without LV2's C headers: one reader and one writer for both.

/// The properties of an atom:Object body, each checked to lie inside it.
public struct AtomObject {
    public let id: UInt32
    public let otype: UInt32
    private let body: UnsafeRawBufferPointer

    /// nil when the body is too short to be an object.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= 8, let base = body.baseAddress else { return nil }
        id = base.loadUnaligned(as: UInt32.self)
        otype = base.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        self.body = body
    }

    /// The value of property `key` (its type and body), or nil when the object has none or
    /// is malformed before it.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func property(_ key: UInt32) -> (type: UInt32, body: UnsafeRawBufferPointer)? {
        guard let base = body.baseAddress else { return nil }
        var offset = 8
        let propertyHeader = 16  // key, context, value size, value type
        while body.count - offset >= propertyHeader {
            let thisKey = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let valueSize = Int(base.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
            let valueType = base.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)
            let start = offset + propertyHeader
            if valueSize > body.count - start { return nil }
            if thisKey == key {
                return (valueType, UnsafeRawBufferPointer(start: base + start, count: valueSize))
            }
            offset = start + ((valueSize + 7) & ~7)
        }
        return nil
    }
}

extension AtomObject {
    /// The number property `key` holds (an atom:Float, Double, Int or Long), if finite.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public func number(_ key: UInt32, _ u: LV2URIDs) -> Double? { property(key).flatMap { AtomObject.number($0, u) } }

    /// The number an atom holds (atom:Float, Double, Int or Long: its type and body), if finite.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func number(_ atom: (type: UInt32, body: UnsafeRawBufferPointer), _ u: LV2URIDs) -> Double? {
        guard let base = atom.body.baseAddress else { return nil }
        let value: Double
        switch (atom.type, atom.body.count) {
        case (u.atomFloat, 4...): value = Double(base.loadUnaligned(as: Float.self))
        case (u.atomDouble, 8...): value = base.loadUnaligned(as: Double.self)
        case (u.atomInt, 4...): value = Double(base.loadUnaligned(as: Int32.self))
        case (u.atomLong, 8...): value = Double(base.loadUnaligned(as: Int64.self))
        default: return nil
        }
        return value.isFinite ? value : nil
    }
}

/// A patch:Set object (its body, after the atom header): patch:property a URID, patch:value
/// an atom of a type and size whose body the caller fills. What the plugin writes on its
/// notify port and the editor window sends it.
public enum PatchSetAtom {
    /// The object body's size for a value of `valueSize` bytes (padded to 8).
    public static func bodySize(valueSize: Int) -> Int { 8 + (16 + 8) + (16 + ((valueSize + 7) & ~7)) }  // id, otype; property; value

    /// Writes the body at `object` (``bodySize(valueSize:)`` bytes, the value's padding zeroed)
    /// and returns where the value's body goes.
    #if REALTIME_PROOF
        @_noLocks @_noAllocation
    #endif
    public static func write(
        at object: UnsafeMutableRawPointer, property key: UInt32, valueType: UInt32, valueSize: Int, _ u: LV2URIDs
    ) -> UnsafeMutableRawPointer {
        object.storeBytes(of: UInt32(0), as: UInt32.self)
        object.storeBytes(of: u.patchSet, toByteOffset: 4, as: UInt32.self)
        let property = object + 8
        property.storeBytes(of: u.patchProperty, as: UInt32.self)
        property.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        property.storeBytes(of: UInt32(4), toByteOffset: 8, as: UInt32.self)
        property.storeBytes(of: u.atomURID, toByteOffset: 12, as: UInt32.self)
        property.storeBytes(of: key, toByteOffset: 16, as: UInt32.self)
        property.storeBytes(of: UInt32(0), toByteOffset: 20, as: UInt32.self)
        let value = property + 24
        value.storeBytes(of: u.patchValue, as: UInt32.self)
        value.storeBytes(of: UInt32(0), toByteOffset: 4, as: UInt32.self)
        value.storeBytes(of: UInt32(valueSize), toByteOffset: 8, as: UInt32.self)
        value.storeBytes(of: valueType, toByteOffset: 12, as: UInt32.self)
        let padded = (valueSize + 7) & ~7
        (value + 16 + valueSize).initializeMemory(as: UInt8.self, repeating: 0, count: padded - valueSize)
        return value + 16
    }
}

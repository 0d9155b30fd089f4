/// How much a parse may take on, so that hostile or broken input is refused with a message
/// instead of exhausting the stack (the parser recurses once per nested array or object)
/// or stalling whoever asked.
public struct JSONLimits: Equatable, Sendable {
    /// Arrays and objects nested deeper than this are refused. A tone-shape document needs
    /// three levels (the object, its points, a point); 64 leaves room for any extra keys.
    public var maximumDepth: Int
    /// Texts longer than this (in bytes) are refused before parsing.
    public var maximumSize: Int

    public init(maximumDepth: Int = 64, maximumSize: Int = 16 * 1024 * 1024) {
        self.maximumDepth = maximumDepth
        self.maximumSize = maximumSize
    }
}

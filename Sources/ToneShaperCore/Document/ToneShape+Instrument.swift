extension InstrumentShape {
    /// `shape` as a plugin keeps it: every parameter as its control port shows it
    /// (``ParameterSpec/portValue(in:)``: a choice's index, 0 or 1 for a toggle, 0 for "nyquist"
    /// terms), in the table's order.
    public init(_ shape: ToneShape) {
        self.init(
            parameters: ParameterTable.audioParameters, points: shape.points,
            values: ParameterTable.all.map { $0.portValue(in: shape) }, controllers: shape.midiMap)
    }
}

extension InstrumentShape {
    /// `shape` as a plugin keeps it: every parameter as its control port shows it
    /// (`LV2Description.portValue`: a choice's index, 0 or 1 for a toggle, 0 for "nyquist"
    /// terms), in the table's order.
    public init(_ shape: ToneShape) {
        self.init(
            parameters: ParameterTable.audioParameters, points: shape.points,
            values: ParameterTable.all.map { LV2Description.portValue($0, in: shape) }, controllers: shape.midiMap)
    }
}

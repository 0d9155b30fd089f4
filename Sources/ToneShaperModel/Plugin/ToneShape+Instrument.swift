import ToneShaperParameters

extension InstrumentShape {
    /// `shape` as a plugin keeps it: every parameter as its control shows it
    /// (``ParameterSpec/portValue(in:)``: a choice's index, 0 or 1 for a toggle, 0 for "nyquist"
    /// terms), in the table's order.
    public init(_ shape: ToneShape) {
        self.init(
            parameters: ParameterTable.audioParameters, points: shape.points,
            values: ParameterTable.all.map { $0.portValue(in: shape) }, controllers: shape.midiMap)
        curvatures = shape.curvatures
        tuning = shape.tuning
    }
}

extension ToneShape {
    /// What a plugin plays, as a document says it: `instrument`'s values as played (the
    /// range and the echo by the plugin's rule, so the node reads the document), its points
    /// as heard, its controller map and its tuning, with `document`'s name, description and the keys
    /// this project does not know.
    public init(played instrument: InstrumentShape, document: ToneShape) {
        self = document
        for (row, spec) in ParameterTable.all.enumerated() {
            spec.store(&self, spec.value(fromPort: instrument.playedValue(at: row)))
        }
        points = instrument.playedPoints
        curvatures = instrument.curvatures
        midiMap = instrument.controllers
        tuning = instrument.tuning
    }
}

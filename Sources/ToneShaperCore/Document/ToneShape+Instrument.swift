extension InstrumentShape {
    /// `shape` as a plugin keeps it: every parameter as its control port's number (a
    /// choice's index, 0 or 1 for a toggle, 0 for "nyquist" terms), in the table's order.
    public init(_ shape: ToneShape) {
        let values = ParameterTable.all.map { spec -> Double in
            switch spec.value(in: shape) {
            case .real(let d): return d
            case .integer(let i): return Double(i)
            case .flag(let b): return b ? 1 : 0
            case .text(let name):
                if case .choice(let names) = spec.kind, let i = names.firstIndex(of: name) { return Double(i) }
                return 0  // "nyquist": the terms' 0
            }
        }
        self.init(parameters: ParameterTable.audioParameters, points: shape.points, values: values, controllers: shape.midiMap)
    }
}

/// A user's shape for the window tests' shape libraries (CLAP, VST3, LV2): unlike the default
/// shape in every value they compare, with four points (the default has three).
public enum ShapeFixture {
    public static let mine = """
        {"duration": 1.5, "minFrequency": 200, "maxFrequency": 900, "componentType": "Sine", "scaleType": "Linear",
         "echoOffsetTimeSeconds": 0, "echoVolume": 0, "fidelity": 300, "amplitude": 0.25,
         "points": [[0, 300], [0.5, 800], [1, 500], [1.5, 250]]}
        """
}

import Testing

/// Every test that runs a JACK server. They run one at a time: each starts a jackd of its
/// own, and several dummy-driver servers at once on a small machine would make the timing
/// figures and the recordings meaningless.
@Suite(.serialized, .enabled(if: ExternalTools.haveJack, "needs jackd, jack_lsp and jack_capture"))
struct WithJackServer {}

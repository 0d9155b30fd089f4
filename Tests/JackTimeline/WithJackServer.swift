import Foundation
import ToneShaperTestSupport

// A release build of the package (`swift build -c release`) compiles this target too, where
// the Testing module is not on the search path; the test builds see it.
#if canImport(Testing)
    import Testing

    /// Every test that runs a JACK server, in every test target. They run one at a time: each
    /// starts a jackd of its own, and several dummy-driver servers at once on a small machine
    /// would make the timing figures and the recordings meaningless. And one process holds JACK
    /// clients (``TimelineRecorder``, ``MIDISender``, the node in process) for one server at a
    /// time only: libjack keeps the graph it reads from a server's shared memory per process,
    /// and clients of two servers open at once were seen to read each other's ports ("could
    /// not connect testmidi:out to ts-lv2test-…:control", a client of the JACK tests' server
    /// named in the LV2 tests'). A target's suite joins by extending this type.
    @Suite(.serialized, .enabled(if: PrivateJackServer.available, "needs jackd, jack_lsp and jack_capture"))
    public struct WithJackServer {}
#endif

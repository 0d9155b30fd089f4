import Foundation
import Synchronization
import ToneShaperAudio
import ToneShaperParameters

extension FourierWavetables {
    private static let preparing = Atomic<Bool>(false)

    /// Starts building every Fourier wave's tables (about 11 MB, 20-40 ms of one core per
    /// wave) on a background thread of low priority, once per process: a live node calls it
    /// at start-up, so that its first change to a Fourier wave costs what any change costs
    /// instead of waiting for the tables on the control thread. Returns at once; later calls
    /// do nothing. The audio thread never waits for it: plans reach it complete.
    public static func prepareInBackground() {
        guard !preparing.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread {
            #if os(Linux)
                // The lowest priority there is (nice 19, this thread only): on a small machine,
                // and under a JACK server without real-time scheduling, the audio thread and the
                // control thread must not wait behind this work. (On Linux the nice value is the
                // calling thread's own, and 0 names the calling thread.)
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            // The largest first: a change made at once to the sawtooth waits the least.
            for wave in [WaveType.sawtoothFourier, .squareFourier, .triangleFourier] { _ = shared(for: wave) }
        }
        thread.name = "toneshaper.wavetables"
        thread.qualityOfService = .utility
        thread.start()
    }
}

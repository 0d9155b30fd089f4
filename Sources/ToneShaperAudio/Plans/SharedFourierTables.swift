import Synchronization

/// The Fourier tables' cache (about 11 MB when every wave is built) for a host that makes
/// and destroys instances of the engine inside another program, as the LV2 plugin does: the
/// cache keeps the tables while at least one instance lives, and lets them go when the last
/// one goes, so that a host which unloads the plugin gets its memory back.
///
/// The host calls `instanceMade()` before an instance builds anything and `instanceGone()`
/// when it is destroyed (and when an instance it began to make is refused). A host that
/// never calls them (the JACK node) keeps the tables for the life of the process.
///
/// Why no live plan loses its tables: a plan's storage (`CurveStorage`) holds a strong
/// reference to its set for as long as the plan may be read (until the audio side hands the
/// plan back), so letting the cache's reference go frees a set only once no storage holds
/// it. And why no builder does: `shared(for:)` retains what it reads from the cache before
/// anyone may let it go (`FourierWavetables.releaseShared()` waits for such readers), so a
/// worker building a plan on another thread while the last instance goes holds its own
/// reference. In LV2, instantiate and cleanup are of the instantiation threading class, never
/// called at the same time as each other, nor with any other function of the instance in
/// question; the count is atomic all the same, so that no host's order can corrupt it.
public enum SharedFourierTables {
    private static let instances = Atomic<Int>(0)

    /// An instance is being made: the tables, once built, are kept while it lives.
    public static func instanceMade() {
        instances.add(1, ordering: .sequentiallyConsistent)
    }

    /// An instance is gone: when it was the last, the cache lets the tables go (each set is
    /// freed at once or when the last plan storage holding it goes). Off the audio thread.
    public static func instanceGone() {
        let left = instances.subtract(1, ordering: .sequentiallyConsistent).newValue
        precondition(left >= 0, "instanceGone without instanceMade")
        if left == 0 { FourierWavetables.releaseShared() }
    }

    /// Instances counted now.
    public static var instanceCount: Int { instances.load(ordering: .sequentiallyConsistent) }
}

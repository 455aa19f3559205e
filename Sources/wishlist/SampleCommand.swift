import Foundation
import WishlistCore

/// `wishlist generate-sample`: writes a large, deterministic archive for benchmarks and load
/// tests (load it with `wishlist import`).
struct SampleCommand {
    let invocation: Invocation

    func run() throws {
        let path = URL(fileURLWithPath: invocation.paths[0])
        let sample = invocation.sample
        try SampleData.largeArchive(trips: sample.trips, activitiesPerTrip: sample.activitiesPerTrip,
                                    seed: sample.seed, to: path)
        print("Wrote \(sample.trips) trips with \(sample.activitiesPerTrip) activities each to \(path.path).")
    }
}

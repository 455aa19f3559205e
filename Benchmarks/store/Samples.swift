import Foundation

/// Wall-clock durations of repeated runs of one operation, in milliseconds.
struct Samples {
    private(set) var milliseconds: [Double] = []

    /// Runs `operation` `iterations` times, stopping early once `budget` is spent (at least
    /// `minimum` runs), after one untimed warm-up run.
    static func measure(iterations: Int, minimum: Int = 5, budget: Duration = .seconds(3),
                        _ operation: () throws -> Void) rethrows -> Samples {
        try operation()
        var samples = Samples()
        let clock = ContinuousClock()
        let deadline = clock.now + budget
        while samples.milliseconds.count < iterations, samples.milliseconds.count < minimum || clock.now < deadline {
            let start = clock.now
            try operation()
            samples.add(start.duration(to: clock.now))
        }
        return samples
    }

    mutating func add(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        milliseconds.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    var count: Int { milliseconds.count }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

func format(_ milliseconds: Double) -> String {
    String(format: milliseconds < 1 ? "%.3f" : "%.2f", milliseconds)
}

func ratio(_ value: Double, _ reference: Double) -> String {
    String(format: "%.2f×", value / reference)
}

func meets(_ condition: Bool) -> String {
    condition ? "yes" : "**no**"
}

/// One row of the table Benchmarks/run prints: measurement, value, reference, ratio, target, met.
func printRow(_ cells: String...) {
    print("| " + cells.joined(separator: " | ") + " |")
}

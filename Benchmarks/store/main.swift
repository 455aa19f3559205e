import Foundation
import WishlistCore

// In-process measurements of the store at scale, printed as markdown tables.
// Usage: store-bench search|check DATABASE [ITERATIONS]

let arguments = CommandLine.arguments
guard arguments.count >= 3, ["search", "check"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: store-bench search|check DATABASE [ITERATIONS]\n".utf8))
    exit(64)
}
let iterations = arguments.count >= 4 ? Int(arguments[3]) ?? 200 : 200
let store = try WishlistStore(path: arguments[2])
if arguments[1] == "search" {
    try SearchBenchmark(store: store, iterations: iterations).run()
} else {
    try CheckBenchmark(store: store, iterations: iterations).run()
}
store.close()

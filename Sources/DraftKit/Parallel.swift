import Dispatch
import Foundation

/// Work spread over the machine's cores.
enum Parallel {
    /// The threads a bulk job uses: every core, at most 8.
    static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

    /// `transform` of each index in `0..<count`, in order; the indices are dealt round-robin
    /// to ``workers`` threads (`DispatchQueue.concurrentPerform`), each slot written by one
    /// of them only. `transform` must not touch shared mutable state.
    static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        let workers = min(Self.workers, count)
        guard workers > 1 else { return (0..<count).map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let slots = buffer
            nonisolated(unsafe) let transform = transform
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: count, by: workers) {
                    (slots.baseAddress! + index).initialize(to: transform(index))
                }
            }
            initialized = count
        }
    }
}

import Foundation
import Glibc

/// Work spread over the machine's cores.
enum Parallel {
    /// The threads a bulk job uses: every core, at most 8.
    static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))

    /// `transform` of each index in `0..<count`, in order; the indices are dealt round-robin
    /// to ``workers`` threads, each slot written by one of them only. `transform` must not
    /// touch shared mutable state.
    ///
    /// The threads are the C library's own (`pthread_create`, `pthread_join`), not
    /// libdispatch's: its pool asks for an `eventfd` when it starts and traps when the
    /// process has no descriptor left (`EMFILE`), where a thread needs none. A thread that
    /// cannot be made leaves its share to the calling thread, so the work is always done.
    static func map<T>(_ count: Int, _ transform: (Int) -> T) -> [T] {
        let workers = min(Self.workers, count)
        guard workers > 1 else { return (0..<count).map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            nonisolated(unsafe) let slots = buffer
            withoutActuallyEscaping(transform) { transform in
                nonisolated(unsafe) let transform = transform
                let share = { @Sendable (worker: Int) in
                    for index in stride(from: worker, to: count, by: workers) {
                        (slots.baseAddress! + index).initialize(to: transform(index))
                    }
                }
                var started: [pthread_t] = []
                var left: [Int] = []
                for worker in 1..<workers {
                    let job = Unmanaged.passRetained(Job { share(worker) })
                    var thread = pthread_t()
                    let made = pthread_create(
                        &thread, nil,
                        { context in
                            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().run()
                            return nil
                        }, job.toOpaque())
                    if made == 0 {
                        started.append(thread)
                    } else {
                        job.release()
                        left.append(worker)
                    }
                }
                share(0)
                for worker in left { share(worker) }
                for thread in started { pthread_join(thread, nil) }
            }
            initialized = count
        }
    }

    /// One thread's work, handed to `pthread_create` as its argument.
    private final class Job: @unchecked Sendable {
        // @unchecked: `run` is called once, on the thread it was made for.
        let run: () -> Void

        init(_ run: @escaping () -> Void) { self.run = run }
    }
}

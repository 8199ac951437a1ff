import Foundation
import ReelCore

/// The one thread on which a player shows video, for every input it opens in turn: a
/// window kept from one playlist item to the next (as mpv keeps it) is then only ever
/// used from the thread that made it, as SDL and OpenGL contexts require.
final class DisplayThread: @unchecked Sendable {
    private let lock = ConditionLock()
    private var jobs: [@Sendable () -> Void] = []
    private var ending = false
    private var runningOn: pthread_t?

    init(name: String) {
        let thread = Thread { [self] in runJobs() }
        thread.name = name
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Runs `job` after the ones before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        lock.withLock {
            jobs.append(job)
            lock.broadcast()
        }
    }

    /// Runs `job` after the ones before it and waits for it.
    func sync(_ job: @escaping @Sendable () -> Void) {
        // From a job itself, waiting would never end.
        if let runningOn = lock.withLock({ runningOn }), pthread_equal(runningOn, pthread_self()) != 0 {
            job()
            return
        }
        let done = DispatchSemaphore(value: 0)
        async {
            job()
            done.signal()
        }
        done.wait()
    }

    /// Lets the thread end once its jobs are done.
    func end() {
        lock.withLock {
            ending = true
            lock.broadcast()
        }
    }

    private func runJobs() {
        lock.withLock { runningOn = pthread_self() }
        while true {
            let job: (@Sendable () -> Void)? = lock.withLock {
                while jobs.isEmpty && !ending { lock.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let job else { return }
            job()
        }
    }
}

extension DisplayThread {
    /// Closes `output` on this thread, where it was used.
    func close(_ output: VideoOutput) {
        nonisolated(unsafe) let output = output
        sync { output.close() }
    }
}

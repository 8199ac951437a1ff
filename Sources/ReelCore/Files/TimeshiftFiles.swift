#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a timeshift's segments, one per segment. Each is made in ``directory`` and
/// unlinked at once, so that only its descriptor holds it: nothing is left on disk however
/// the process ends, and closing the descriptor frees the space.
///
/// One lock covers every call, so that a read never meets a descriptor that a drop closed
/// (and the system gave to another file).
package final class TimeshiftFiles: @unchecked Sendable {
    package let directory: String
    private let lock = ConditionLock()
    private var descriptors: [Int: Int32] = [:]

    package init(directory: String) {
        self.directory = directory
    }

    deinit {
        for descriptor in descriptors.values { close(descriptor) }
    }

    /// Makes segment `number`'s file.
    package func create(_ number: Int) throws(OutputError) {
        var template = Array("\(directory)/reel-timeshift-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("cannot make a file") }
        // A program the player starts must not hold the space on after it.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        lock.withLock { descriptors[number] = descriptor }
    }

    /// Writes `bytes` at `offset` of segment `number`'s file.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, to number: Int) throws(OutputError) {
        let written = whole(bytes.count, of: number) { descriptor, done in
            pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
        }
        guard written else { throw failure("cannot write") }
    }

    /// Reads `count` bytes at `offset` of segment `number`'s file into `buffer`; false
    /// when the file is gone (its segment was dropped) or cannot be read.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int, from number: Int) -> Bool {
        whole(buffer.count, of: number) { descriptor, done in
            pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
        }
    }

    /// Closes segment `number`'s file, which frees its space.
    package func drop(_ number: Int) {
        lock.withLock {
            if let descriptor = descriptors.removeValue(forKey: number) { close(descriptor) }
        }
    }

    /// The bytes the files take on disk, as the system counts them (blocks allocated).
    package var bytesOnDisk: Int {
        lock.withLock {
            descriptors.values.reduce(0) { total, descriptor in
                var status = stat()
                return fstat(descriptor, &status) == 0 ? total + Int(status.st_blocks) * 512 : total
            }
        }
    }

    /// Calls `transfer` (a pread or pwrite of what is left after `done` bytes) on segment
    /// `number`'s file until `count` bytes are moved; false when the file is gone or a
    /// call moves nothing.
    private func whole(_ count: Int, of number: Int, _ transfer: (Int32, Int) -> Int) -> Bool {
        lock.withLock {
            guard let descriptor = descriptors[number] else { errno = EBADF; return false }
            var done = 0
            while done < count {
                let moved = transfer(descriptor, done)
                if moved < 0 && errno == EINTR { continue }
                guard moved > 0 else { return false }
                done += moved
            }
            return true
        }
    }

    private func failure(_ what: String) -> OutputError {
        OutputError(directory, "timeshift: \(what): \(String(cString: strerror(errno)))")
    }
}

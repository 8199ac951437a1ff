import Foundation

/// The result of running a program to completion.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    var timedOut: Bool
    /// When the signal asked for was sent, in seconds from the start; nil when it was not.
    var signalledAt: Double? = nil
}

/// A signal a test sends a running program, as Ctrl-C or `kill` would: `after` seconds
/// once its output (standard output or error) holds `text` `count` times, or after its
/// start when there is no text. Waiting for the program's own word first holds on a
/// loaded machine, where starting alone may take longer than a fixed delay.
struct ProcessSignal {
    var number: Int32
    var after: Double
    var text: String?
    var count: Int

    init(_ number: Int32, after: Double, onceOutputHas text: String? = nil, count: Int = 1) {
        self.number = number
        self.after = after
        self.text = text
        self.count = count
    }
}

enum Processes {
    /// Runs `executable` with `arguments`, killing it after `timeout` seconds; `signal`
    /// is sent to it while it runs, as its plan says.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 120,
                    environment: [String: String] = [:], signal: ProcessSignal? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable))
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let start = Date()
        try process.run()
        var timedOut = false
        var signalledAt: Double?
        var countdownFrom: Date? = signal?.text == nil ? start : nil
        while process.isRunning {
            if let signal, signalledAt == nil {
                if countdownFrom == nil, let text = signal.text {
                    let output = [outURL, errURL].map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }.joined()
                    if output.components(separatedBy: text).count > signal.count { countdownFrom = Date() }
                }
                if let countdownFrom, Date().timeIntervalSince(countdownFrom) >= signal.after {
                    kill(process.processIdentifier, signal.number)
                    signalledAt = Date().timeIntervalSince(start)
                }
            }
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                process.terminate()
                usleep(200_000)
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                             stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                             seconds: Date().timeIntervalSince(start), timedOut: timedOut, signalledAt: signalledAt)
    }

    /// ``run(_:_:timeout:environment:signal:)`` on a thread of its own, awaited: a long run
    /// (a fuzzer's minute) then holds none of the test process's pool threads, one a core,
    /// which the other suites need (held by two fuzzing lines, they waited past their time
    /// limits in a loaded run).
    static func runOffThePool(_ executable: String, _ arguments: [String], timeout: Double = 120,
                              environment: [String: String] = [:]) async throws -> ProcessResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(executable, arguments, timeout: timeout, environment: environment) })
            }.start()
        }
    }

    /// SIGTERM, then SIGKILL after 2 s (a child may inherit a mask that blocks SIGTERM
    /// from the test runner's threads), then waits for the exit.
    static func stop(_ process: Process) {
        if process.isRunning {
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    static func which(_ name: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw TestSetupError("\(name) is not installed: run scripts/setup.sh")
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A program left running while the test works (a sender, a server).
final class BackgroundProcess {
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)

    /// - Parameter outputPath: a file that receives the program's standard output.
    /// - Parameter errorPath: a file that receives the program's standard error.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], outputPath: String? = nil, errorPath: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try Processes.which(executable))
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        if let outputPath {
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        if let errorPath {
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.processIdentifier }

    /// Whether this process (not another one that took the port first) listens on TCP `port`.
    func isListening(on port: UInt16) throws -> Bool {
        try Processes.run("ss", ["-Htlnp", "sport = :\(port)"]).stdout.contains("pid=\(process.processIdentifier),")
    }
    /// Whether this process holds an established TCP connection to local `port`.
    func isConnected(to port: UInt16) throws -> Bool {
        try Processes.run("ss", ["-Htnp", "state", "established", "dport = :\(port)"]).stdout.contains("pid=\(process.processIdentifier),")
    }
    /// The process's threads and open descriptors now, from /proc.
    var threadsAndDescriptors: (threads: Int, descriptors: Int) {
        let pid = process.processIdentifier
        let count = { (path: String) in (try? FileManager.default.contentsOfDirectory(atPath: path).count) ?? -1 }
        return (count("/proc/\(pid)/task"), count("/proc/\(pid)/fd"))
    }

    /// Every thread's stack, as gdb prints it: what a process that should have ended waits on.
    var stacks: String {
        guard process.isRunning, let result = try? Processes.run("gdb", ["-p", String(process.processIdentifier), "-batch", "-ex", "thread apply all bt 15"], timeout: 60)
        else { return "" }
        return result.stdout.split(separator: "\n").filter { $0.hasPrefix("Thread") || $0.hasPrefix("#") }.joined(separator: "\n")
    }

    /// Waits for the program to end, up to `seconds`; whether it ended.
    @discardableResult
    func waitForExit(within seconds: Double) -> Bool {
        guard exited.wait(timeout: .now() + seconds) == .success else { return false }
        exited.signal()   // ended for every later wait too
        process.waitUntilExit()
        return true
    }
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    func stop() { Processes.stop(process) }

    /// Sends SIGINT, as Ctrl-C does.
    func interrupt() { if process.isRunning { process.interrupt() } }

    /// Stops every thread of the process (SIGSTOP), as a machine too busy to run it would.
    func suspend() { _ = process.suspend() }

    /// Lets a suspended process run again (SIGCONT).
    func resume() { _ = process.resume() }

    /// Ends the process at once (SIGKILL), as the OOM killer or a power cut would, and waits.
    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// Where things are: the package, the `reel` binary built beside the tests, the cache.
enum Paths {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let reel: String = {
        if let path = ProcessInfo.processInfo.environment["REEL_BIN"] { return path }
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("reel").path
        if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/reel").path
    }()

    /// An example program of `Examples/`, built beside the tests.
    static func example(_ name: String) -> String {
        URL(fileURLWithPath: reel).deletingLastPathComponent().appendingPathComponent("example-\(name)").path
    }

    /// The shared fixtures (Tencent's VAP files): `$REEL_FIXTURES`, `../shared/fixtures`
    /// next to the package, or the machine's `/work/shared/fixtures`.
    static func sharedFixtures(_ subdirectory: String) throws -> URL {
        let candidates = [ProcessInfo.processInfo.environment["REEL_FIXTURES"].map { URL(fileURLWithPath: $0) },
                          packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures"),
                          URL(fileURLWithPath: "/work/shared/fixtures")].compactMap { $0 }
        for candidate in candidates {
            let directory = candidate.appendingPathComponent(subdirectory)
            if FileManager.default.fileExists(atPath: directory.path) { return directory }
        }
        throw TestSetupError("the shared fixtures are not at any of \(candidates.map(\.path)); set REEL_FIXTURES")
    }

    static let cache: URL = {
        let url = packageRoot.appendingPathComponent(".cache")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs the `reel` command line.
func reel(_ arguments: String..., timeout: Double = 120, signal: ProcessSignal? = nil) throws -> ProcessResult {
    try Processes.run(Paths.reel, arguments, timeout: timeout, signal: signal)
}

/// Waits (up to 10 s) until something listens on UDP `port` of loopback (an SRT listener
/// is then ready for a caller), while `process` runs.
func waitForUDPListener(on port: Int, _ process: BackgroundProcess) throws {
    try waitFor("a UDP listener on port \(port)", while: process) {
        try Processes.run("ss", ["-Hunl", "sport = :\(port)"]).stdout.contains(":\(port)")
    }
}

/// The MD5 column of ffmpeg's `framemd5` text, a picture a line.
func frameMD5Hashes(_ framemd5: String) -> [Substring] {
    framemd5.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last?.drop { $0 == " " } }
}

/// The `reel: ` messages in `stderr`, one a line: a message may follow the live line
/// (`--stats`, ended by a carriage return) it interrupted.
func reelMessages(_ stderr: String) -> [String] {
    stderr.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).compactMap { line in line.range(of: "reel: ").map { String(line[$0.lowerBound...]) } }
}

/// Waits up to `timeout` seconds for the file at `path` (a process's stderr) to hold `text`
/// `count` times, wherever it is on a line (stats lines end in a carriage return); returns
/// when it did, or nil.
func waitForText(_ text: String, count: Int = 1, in path: String, timeout: Double) -> Date? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let content = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if content.components(separatedBy: text).count > count { return Date() }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return nil
}

/// Polls `condition` every 20 ms for up to 10 s while `process` runs; throws when it never holds.
func waitFor(_ what: String, while process: BackgroundProcess, condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, process.isRunning {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.02)
    }
    throw TestSetupError("no \(what) within 10 s")
}

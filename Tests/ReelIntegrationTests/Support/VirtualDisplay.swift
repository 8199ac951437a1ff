import Foundation

/// An X server of its own for a window test (Xvfb), on a display number it chose itself
/// (`-displayfd`: no collision with another server, even one another test process
/// started), ready once it has written that number.
final class VirtualDisplay {
    let name: String
    private let server = Process()
    private var windowManager: Process?

    /// - Parameter windowManager: also run openbox, for what only a window manager
    ///   grants (fullscreen); without one, windows sit where they ask to.
    init(windowManager: Bool = false) throws {
        let announced = Pipe()
        server.executableURL = URL(fileURLWithPath: try Processes.which("Xvfb"))
        // -noreset: by default the server resets whenever its last client leaves, and
        // every xdotool poll is such a client; a player that connected during a reset
        // lost its window (none appeared in 30 s about once in 40 runs on a busy machine).
        server.arguments = ["-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset"]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = announced
        server.standardError = FileHandle.nullDevice
        try server.run()
        // Xvfb writes the number when it accepts connections; a busy machine can take
        // seconds, so read until the newline rather than poll for a socket.
        var announcement = Data()
        while !announcement.contains(UInt8(ascii: "\n")) {
            let more = announced.fileHandleForReading.availableData
            if more.isEmpty { break }
            announcement.append(more)
        }
        let digits = String(decoding: announcement, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let number = Int(digits) else {
            server.terminate()
            throw TestSetupError("Xvfb did not announce a display")
        }
        name = ":\(number)"
        if windowManager { try startWindowManager() }
    }

    private func startWindowManager() throws {
        let manager = Process()
        manager.executableURL = URL(fileURLWithPath: try Processes.which("openbox"))
        manager.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": name]) { $1 }
        manager.standardOutput = FileHandle.nullDevice
        manager.standardError = FileHandle.nullDevice
        try manager.run()
        windowManager = manager
        // Ready once it owns the screen's window-manager selection.
        for _ in 0..<100 {
            let script = "import sys\nfrom Xlib import display\nd = display.Display(sys.argv[1])\nowner = d.get_selection_owner(d.intern_atom('WM_S0'))\nprint('owned' if getattr(owner, 'id', 0) else 'free')"
            let owner = try Processes.run("/usr/bin/python3", ["-c", script, name])
            if owner.stdout.hasPrefix("owned") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSetupError("openbox did not take the screen")
    }

    func stop() {
        if let windowManager { Processes.stop(windowManager) }
        Processes.stop(server)
    }

    /// The window named `title`: its position and size, once it is shown.
    func window(titled title: String, timeout: Double = 30) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Shown windows only: a user sees, and can close, nothing else.
            let found = try Processes.run("xdotool", ["search", "--onlyvisible", "--name", title, "getwindowgeometry"], environment: ["DISPLAY": name])
            let numbers = found.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            // "Window N / Position: X,Y (screen: 0) / Geometry: WxH"
            if found.status == 0, numbers.count >= 6 { return (numbers[1], numbers[2], numbers[4], numbers[5]) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// Starts `reel play ARGUMENTS` here and returns it with its window, once shown.
    func play(_ arguments: [String], title: String = "Reel") throws -> (player: BackgroundProcess, window: (x: Int, y: Int, width: Int, height: Int)) {
        let log = try Paths.temporaryDirectory().appendingPathComponent("player.log").path
        let player = try BackgroundProcess(Paths.reel, ["play"] + arguments, environment: ["DISPLAY": name], errorPath: log)
        guard let window = try window(titled: title) else {
            player.stop()
            throw TestSetupError("no window; reel \(player.isRunning ? "runs" : "ended with \(player.exitStatus ?? -1)"): \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        return (player, window)
    }

    /// `attempt`'s result once `done` accepts it, tried every 0.1 s for up to
    /// `timeout` seconds; the last result otherwise (the caller's expectation then fails).
    func waitFor<Result>(timeout: Double = 10, _ attempt: () throws -> Result, until done: (Result) -> Bool) rethrows -> Result {
        let deadline = Date().addingTimeInterval(timeout)
        var result = try attempt()
        while !done(result), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            result = try attempt()
        }
        return result
    }

    /// The best PSNR of the screen's `crop` (screenshotted to `shot`) against `reference`
    /// over `timeout` seconds, or the first that reaches `threshold` (a busy machine takes
    /// a while to show a picture, or to build a 360° view's exact maps).
    func settledPSNR(shot: String, crop: (x: Int, y: Int, width: Int, height: Int), against reference: String,
                     threshold: Double, timeout: Double = 6) throws -> Double {
        let deadline = Date().addingTimeInterval(timeout)
        var best = -Double.infinity
        repeat {
            try screenshot(to: shot)
            best = max(best, try Self.psnr(shot, crop: crop, against: reference))
            if best >= threshold { break }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        return best
    }

    /// The names of the windows that are shown now.
    func visibleWindowNames() throws -> [String] {
        let found = try Processes.run("xdotool", ["search", "--onlyvisible", "--name", ".", "getwindowname", "%@"], environment: ["DISPLAY": name])
        return found.stdout.split(separator: "\n").map(String.init)
    }

    /// Presses `key` in the window whose name contains `title`, as a user does: the
    /// pointer over the window (with no window manager the focus follows it), then a
    /// real key down and up through XTEST (xdotool's `key --window` sends synthetic
    /// events, which SDL does not always take).
    func press(_ key: String, inWindowTitled title: String) throws {
        let environment = ["DISPLAY": name]
        _ = try Processes.run("xdotool", ["search", "--onlyvisible", "--name", title, "mousemove", "--window", "%1", "20", "20"],
                              timeout: 10, environment: environment)
        Thread.sleep(forTimeInterval: 0.1)
        _ = try Processes.run("xdotool", ["keydown", key], timeout: 10, environment: environment)
        Thread.sleep(forTimeInterval: 0.05)
        _ = try Processes.run("xdotool", ["keyup", key], timeout: 10, environment: environment)
    }

    /// Asks the window whose name contains `title` to close, as a window manager's
    /// close button does (a `WM_DELETE_WINDOW` message).
    func close(windowTitled title: String) throws {
        let found = try Processes.run("xdotool", ["search", "--name", title], environment: ["DISPLAY": name])
        guard let id = found.stdout.split(separator: "\n").first else { throw TestSetupError("no window \(title)") }
        let script = """
            import sys
            from Xlib import X, display, protocol
            d = display.Display(sys.argv[1])
            w = d.create_resource_object('window', int(sys.argv[2]))
            message = protocol.event.ClientMessage(window=w, client_type=d.intern_atom('WM_PROTOCOLS'),
                                                   data=(32, [d.intern_atom('WM_DELETE_WINDOW'), X.CurrentTime, 0, 0, 0]))
            w.send_event(message, event_mask=0)
            d.flush()
            """
        // Debian's own Python, where apt put python3-xlib.
        let sent = try Processes.run("/usr/bin/python3", ["-c", script, name, String(id)])
        guard sent.status == 0 else { throw TestSetupError("python3-xlib: \(sent.stderr)") }
    }

    func screenshot(to path: String) throws {
        let dump = path + ".xwd"
        // xwd now and then meets a window being mapped or resized (X's BadMatch): again.
        var grab = try Processes.run("sh", ["-c", "xwd -root -silent -display \(name) > \(dump)"])
        for _ in 0..<2 where grab.status != 0 && grab.stderr.contains("BadMatch") {
            Thread.sleep(forTimeInterval: 0.1)
            grab = try Processes.run("sh", ["-c", "xwd -root -silent -display \(name) > \(dump)"])
        }
        guard grab.status == 0 else { throw TestSetupError("xwd: \(grab.stderr)") }
        let convert = try Processes.run("ffmpeg", ["-v", "error", "-y", "-i", dump, path])
        guard convert.status == 0 else { throw TestSetupError("ffmpeg: \(convert.stderr)") }
    }

    /// PSNR (dB) of a crop of the screenshot `shot` against `reference`, by ffmpeg's psnr filter.
    /// The highest PSNR of the picture at `crop` in `shot` against any picture of `video`
    /// (each converted to RGB as `conversion` says): whether, and how closely, the window
    /// shows one of the video's pictures, whichever it is.
    static func bestPSNR(_ shot: String, crop: (x: Int, y: Int, width: Int, height: Int), amongPicturesOf video: String, conversion: String) throws -> Double {
        let graph = "[0]crop=\(crop.width):\(crop.height):\(crop.x):\(crop.y),format=rgb24,loop=loop=-1:size=1[a];"
            + "[1]\(conversion),scale=\(crop.width):\(crop.height),format=rgb24[b];[a][b]psnr=stats_file=-:shortest=1"
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", shot, "-i", video, "-lavfi", graph, "-f", "null", "-"])
        let values = result.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("psnr_avg:") }) else { return nil }
            let value = field.dropFirst("psnr_avg:".count)
            return value == "inf" ? .infinity : Double(value)
        }
        guard let best = values.max() else { throw TestSetupError("no PSNR from ffmpeg: \(result.stderr)") }
        return best
    }

    static func psnr(_ shot: String, crop: (x: Int, y: Int, width: Int, height: Int), against reference: String) throws -> Double {
        let graph = "[0]crop=\(crop.width):\(crop.height):\(crop.x):\(crop.y),format=rgb24[a];[1]scale=\(crop.width):\(crop.height),format=rgb24[b];[a][b]psnr"
        let result = try Processes.run("ffmpeg", ["-v", "info", "-nostdin", "-i", shot, "-i", reference, "-lavfi", graph, "-f", "null", "-"])
        guard let range = result.stderr.range(of: "average:") else { throw TestSetupError("no PSNR in: \(result.stderr)") }
        let value = result.stderr[range.upperBound...].prefix { !$0.isWhitespace }
        return value == "inf" ? .infinity : Double(value) ?? 0
    }
}

import Foundation
import ReelCore

extension Wall {
    /// The wall's thread: the window's input, the commands and first pictures (through
    /// ``WallState``), the tiles' rates once a second, and a new wall picture whenever a tile
    /// has a new one, at most ``WallConfiguration/framesPerSecond`` a second.
    func run() {
        let output = makeOutput()
        let painter = WallPainter(width: width, height: height, labels: configuration.showsLabels)
        let interval = 1 / max(configuration.framesPerSecond, 1)
        // A window is read every 10 ms; without one the wall wakes for its tiles' pictures
        // and commands, and looks at least 4 times a second (the labels' rates, once a second).
        let poll = (output?.takesInput ?? false) ? 0.01 : 0.25
        var lastPainted = -Double.infinity, lastRates = monotonicSeconds()
        var rates = TileRates()
        while true {
            var selectionChanged = false
            let asked = (output?.input() ?? []).compactMap(command(for:))
            let effects = lock.withLock { () -> [WallState.Effect]? in
                guard !stopping else { return nil }
                let before = (state.chosen, state.zoomed)
                var effects: [WallState.Effect] = []
                for command in commands + asked { effects += state.apply(command) }
                for key in firstPictures { effects += state.firstPicture(camera: key.camera, stream: key.stream) }
                commands = []
                firstPictures = []
                if before != (state.chosen, state.zoomed) {
                    dirty = true
                    selectionChanged = true
                    continuation.yield(.selection(chosen: state.chosen, zoomed: state.zoomed))
                }
                return effects
            }
            guard let effects else { break }
            perform(effects)
            let now = monotonicSeconds()
            if now - lastRates >= 1 {
                updateLabels(rates: &rates, seconds: now - lastRates)
                lastRates = now
            }
            let scene = lock.withLock { () -> WallPainter.Scene? in
                // A new selection is painted at once, before any first picture the switch
                // brings is taken: the tile shows its held picture at its new size first.
                guard dirty, selectionChanged || now - lastPainted >= interval else { return nil }
                dirty = false
                return makeScene()
            }
            if let scene, let picture = try? painter.paint(scene, layout: layout) {
                let index = lock.withLock { () -> Int in
                    defer { painted += 1 }
                    return painted
                }
                // Numbered at the wall's most pictures a second: a y4m tap plays at that rate.
                let frame = picture.videoFrame(pts: Int64(index), duration: 1, timeBase: Rational(1, max(Int(configuration.framesPerSecond.rounded()), 1)),
                                               isKeyframe: true)
                lastPainted = now
                output?.present(frame)
                frameTap.deliver(frame)
            }
            lock.withLock {
                guard !stopping, commands.isEmpty, firstPictures.isEmpty else { return }
                // A new picture (not yet due) wakes the wall when nothing was waiting to be drawn.
                let untilDue = dirty ? max(lastPainted + interval - monotonicSeconds(), 0) : poll
                lock.wait(seconds: min(untilDue, poll))
            }
        }
        output?.close()
        finished.signal()
    }

    /// What the window's `input` asks of the wall; quitting is told, not done.
    private func command(for input: WallInput) -> WallState.Command? {
        switch input {
        case .command(let command): return command
        case .quit:
            continuation.yield(.quitAsked)
            return nil
        case .click(let x, let y, let count, let windowWidth, let windowHeight):
            let (visible, zoomed) = lock.withLock { (state.visible, state.zoomed) }
            guard let index = WallComposer.tileIndex(atX: x, y: y, windowWidth: windowWidth, windowHeight: windowHeight,
                                                     visibleCount: visible.count, layout: layout, width: width, height: height)
            else { return nil }
            // A double click fills the window with a tile, and on the one filling it goes back.
            if count >= 2 { return zoomed == visible[index] ? .back : .zoomTile(visible[index]) }
            return .choose(visible[index])
        }
    }

    /// What to draw now: each visible tile's last picture, line and whether it is chosen. Under the lock.
    private func makeScene() -> WallPainter.Scene {
        let tiles = state.visible.map { camera in
            WallPainter.Tile(camera: camera, latest: streams[StreamKey(camera: camera, stream: state.shown[camera])]?.output.current,
                             label: configuration.showsLabels ? labelText(of: camera) : nil)
        }
        return WallPainter.Scene(tiles: tiles, chosen: state.visible.count > 1 ? state.chosen : nil)
    }

    /// The camera's line, made again only when its label changed. Call with the lock held.
    private func labelText(of camera: Int) -> String {
        if let kept = labelTexts[camera], kept.label.holdsTheSame(as: labels[camera]) { return kept.text }
        let text = labels[camera].text
        labelTexts[camera] = (labels[camera], text)
        return text
    }

    /// Pictures a second and live latency of each tile's stream shown, over the last `seconds`.
    private func updateLabels(rates: inout TileRates, seconds: Double) {
        let shown = lock.withLock {
            state.shown.enumerated().map { camera, stream in (camera, stream, streams[StreamKey(camera: camera, stream: stream)]) }
        }
        for (camera, stream, playing) in shown {
            let latest = playing?.output.current
            let statistics = playing?.player.statistics
            let (framesPerSecond, bitRate) = rates.update(camera: camera, serial: latest?.serial, bytes: statistics?.bytesRead, seconds: seconds)
            let latency = statistics?.liveLatency
            lock.withLock {
                labels[camera].framesPerSecond = framesPerSecond
                labels[camera].bitRate = bitRate
                labels[camera].latency = latency
                labels[camera].size = latest.map { (width: $0.frame.width, height: $0.frame.height) }
                labels[camera].playsMainStream = stream == .main && cameras[camera].sub != nil
                markDirty()
            }
        }
    }
}

/// The pictures and bytes each tile had at the last count, to tell its rates.
struct TileRates {
    private var counts: [Int: (serial: Int?, bytes: Int64?)] = [:]

    /// Pictures and bits a second of `camera` since the last call `seconds` ago; each nil
    /// before two counts, or when its count went back (a new stream, a new session).
    mutating func update(camera: Int, serial: Int?, bytes: Int64?, seconds: Double) -> (framesPerSecond: Double?, bitRate: Double?) {
        defer { counts[camera] = (serial, bytes) }
        guard seconds > 0, let before = counts[camera] else { return (nil, nil) }
        func rate<Count: BinaryInteger>(_ now: Count?, _ then: Count?, scale: Double) -> Double? {
            guard let now, let then, now >= then else { return nil }
            return Double(now - then) * scale / seconds
        }
        return (rate(serial, before.serial, scale: 1), rate(bytes, before.bytes, scale: 8))
    }
}

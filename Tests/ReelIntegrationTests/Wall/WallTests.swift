import Foundation
import Reel
import Testing

extension ServerPlaybackTests {
    /// The camera wall against real cameras: files sent looping in RTP and served by
    /// gst-rtsp-server (``WallCameras``); what the wall shows is compared with ffmpeg's
    /// decoding of each camera's file, picture by picture, found by the number each carries.
    @Suite struct WallTests {
        /// 8 s of `width` × `height` at `rate` a second, every picture a keyframe, camera
        /// `camera`'s colours turned by a quarter of the hue circle per camera, a square of
        /// luma `mark` (grey) in the top-left corner when given, and its number in ten cells along its
        /// bottom edge (white for a 1, lowest bit first), each `width / 20` wide and
        /// `height / 22` high, on grey so that no conversion changes them.
        static func numberedCamera(_ camera: Int, width: Int, height: Int, rate: Int, mark: Int? = nil) throws -> String {
            let cell = width / 20, rows = height / 22
            let cells = "if(gte(Y,\(height - rows))*lt(X,\(10 * cell)),if(mod(floor(N/pow(2,floor(X/\(cell)))),2),235,16),"
                + (mark.map { "if(lt(X,\(2 * cell))*lt(Y,\(2 * cell)),\($0),lum(X,Y))" } ?? "lum(X,Y)") + ")"
            let grey = { (plane: String) in
                "if(gte(Y,\((height - rows) / 2))*lt(X,\(5 * cell))+\(mark == nil ? "0" : "lt(X,\(cell))*lt(Y,\(cell))"),128,\(plane)(X,Y))"
            }
            return try Fixtures.made("wall-camera\(camera)-\(width)x\(height)-\(rate)\(mark.map { "-mark\($0)" } ?? "").mp4", [
                "-f", "lavfi", "-i",
                "testsrc2=size=\(width)x\(height):rate=\(rate):duration=8,hue=h=\(90 * camera),format=yuv420p,geq=lum='\(cells)':cb='\(grey("cb"))':cr='\(grey("cr"))'",
                "-c:v", "libx264", "-g", "1", "-bf", "0", "-crf", "14", "-pix_fmt", "yuv420p"])
        }

        /// The number in a picture of ``numberedCamera(_:width:height:rate:mark:)`` at
        /// (`x`, `y`) of a `stride`-wide luma plane, `width` × `height` on screen; nil when a
        /// cell is neither black nor white.
        static func number(in luma: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int) -> Int? {
            let cell = width / 20, rows = height / 22
            var value = 0
            for bit in 0..<10 {
                var sum = 0, count = 0
                for row in (y + height - rows + rows / 4)..<(y + height - rows / 4) {
                    for column in (x + bit * cell + cell / 4)..<(x + bit * cell + cell * 3 / 4) {
                        sum += Int(luma[row * stride + column])
                        count += 1
                    }
                }
                switch sum / max(count, 1) {
                case 170...: value |= 1 << bit
                case ..<80: break
                default: return nil
                }
            }
            return value
        }

        /// The `width` × `height` part at (`x`, `y`) of a luma plane `stride` wide.
        static func crop(_ luma: [UInt8], stride: Int, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
            var part: [UInt8] = []
            part.reserveCapacity(width * height)
            for row in y..<(y + height) {
                let start = row * stride + x
                part += luma[start..<(start + width)]
            }
            return part
        }

        /// The y4m pictures of `path` (4:2:0, `width` wide): each picture's luma.
        static func lumaPlanes(_ path: String, width: Int, height: Int, in directory: URL) throws -> [[UInt8]] {
            try VAPOverlayTests.rawFrames(path, width: width, height: height, in: directory, name: "wall").map { Array($0[0..<(width * height)]) }
        }

        /// Four cameras on a 2 × 2 wall of 640 × 360: each tile shows its camera's pictures,
        /// byte for byte as ffmpeg decodes its file (a 320 × 180 picture in a 320 × 180 tile is
        /// not scaled), black until its first, in order, never black again.
        @Test(.timeLimit(.minutes(3))) func eachTileShowsItsCameraAsFFmpegDecodesIt() throws {
            let directory = try Paths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let files = try (0..<4).map { try Self.numberedCamera($0, width: 320, height: 180, rate: 15) }
            let cameras = try WallCameras(files.enumerated().map { ("cam\($0.offset + 1)", $0.element) })
            defer { cameras.stop() }
            let tap = directory.appendingPathComponent("wall.y4m").path
            let shown = try Processes.run(Paths.reel, ["wall", "--headless", "--no-audio", "--no-labels", "--size", "640x360", "--duration", "5", "--tap", "y4m:\(tap)"]
                                 + (1...4).map { cameras.url("cam\($0)") }, timeout: 90)
            #expect(shown.status == 0, "\(shown.stderr)")
            let wall = try Self.lumaPlanes(tap, width: 640, height: 360, in: directory)
            let expected = try files.map { try VAPOverlayTests.rawFrames($0, width: 320, height: 180, in: directory, name: "camera").map { Array($0[0..<(320 * 180)]) } }
            try #require(wall.count >= 60, "\(wall.count) wall pictures in 5 s")
            for camera in 0..<4 {
                let (x, y) = ((camera % 2) * 320, (camera / 2) * 180)
                var numbers: [Int] = [], wrong = 0, blackAfterFirst = 0
                for picture in wall {
                    let tile = Self.crop(picture, stride: 640, x: x, y: y, width: 320, height: 180)
                    // Black until the camera's first picture (a black tile would read as number 0).
                    if tile.allSatisfy({ $0 == 16 }) {
                        if !numbers.isEmpty { blackAfterFirst += 1 }
                        continue
                    }
                    guard let number = Self.number(in: picture, stride: 640, x: x, y: y, width: 320, height: 180), number < expected[camera].count else {
                        wrong += 1
                        continue
                    }
                    if tile != expected[camera][number] { wrong += 1 }
                    if numbers.last != number { numbers.append(number) }
                }
                // Looping files start again at 0: count steps forward, allowing one wrap.
                let steps = zip(numbers, numbers.dropFirst()).map { ($1 - $0 + 120) % 120 }
                #expect(wrong == 0 && blackAfterFirst == 0, "camera \(camera + 1): \(wrong) pictures unlike ffmpeg's, \(blackAfterFirst) lost")
                // In order; a wall picture is made at most every 1/30 s, so two pictures of a
                // camera that a loaded machine delivers together may show as one.
                #expect(steps.allSatisfy { (1..<30).contains($0) }, "camera \(camera + 1): numbers \(numbers)")
                #expect(numbers.count >= 30, "camera \(camera + 1): \(numbers.count) pictures of about 60")
                let skipped = steps.reduce(0) { $0 + $1 - 1 }
                print("wall tile \(camera + 1): \(numbers.count) pictures, each ffmpeg's, in order, \(skipped) not shown")
            }
        }

        /// Enter (here: a double click's command) on a tile: the tile fills the window and its
        /// camera's main stream starts; until its first picture the sub-stream's last one is
        /// shown, scaled to the window; then only the main stream's, and the sub-stream stops.
        /// No picture between is black.
        @Test(.timeLimit(.minutes(3))) func aChosenTileSwitchesToItsMainStreamWithoutABlackPicture() async throws {
            let sub = try Self.numberedCamera(0, width: 320, height: 180, rate: 15, mark: 16)
            let main = try Self.numberedCamera(1, width: 640, height: 360, rate: 30, mark: 235)
            let other = try Self.numberedCamera(2, width: 320, height: 180, rate: 15)
            let cameras = try WallCameras([("sub", sub), ("main", main), ("other", other)])
            defer { cameras.stop() }
            var configuration = WallConfiguration()
            configuration.width = 640
            configuration.height = 360
            configuration.showsLabels = false
            let wall = Wall(cameras: [WallCamera(name: "door", main: cameras.url("main"), sub: cameras.url("sub")),
                                      WallCamera(name: "yard", main: cameras.url("other"))],
                            configuration: configuration, output: { HeadlessWallOutput() }, audioOutput: { nil })
            let pictures = LockedPictures()
            let subscription = wall.frameTap.subscribe(format: .i420, bufferLimit: 1000) { sample in
                let buffer = sample.pixelBuffer
                let plane = buffer.planes[0]
                pictures.append((0..<buffer.height).flatMap { Array(UnsafeBufferPointer(start: plane.row($0), count: buffer.width)) })
            }
            defer { subscription.cancel() }
            wall.start()
            var firstPictures = Set<String>(), zoomedAt: Int?, mainAt: Int?
            for await event in wall.events {
                guard case .firstPicture(let camera, let stream) = event else { continue }
                firstPictures.insert("\(camera) \(stream)")
                if firstPictures.isSuperset(of: ["0 sub", "1 main"]), zoomedAt == nil {
                    zoomedAt = pictures.count
                    wall.apply(.zoomTile(0))
                }
                if camera == 0 && stream == .main {
                    mainAt = pictures.count
                    break
                }
            }
            // A second of the main stream, counted in wall pictures.
            while pictures.count < (mainAt ?? 0) + 30 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(wall.player(camera: 0, stream: .sub) == nil, "the sub-stream stopped once the main stream showed")
            wall.stop()

            let all = pictures.values
            let zoomed = Array(all[(zoomedAt ?? 0)...])
            var kinds: [String] = []
            for picture in zoomed {
                let mean = picture.reduce(0) { $0 + Int($1) } / picture.count
                // Two cameras on a 2 × 2 grid: its bottom half is black.
                let grid = (180..<360).allSatisfy { row in picture[(row * 640)..<(row * 640 + 640)].allSatisfy { $0 == 16 } }
                // The corner square: white on the main stream, black on the sub-stream.
                let corner = [(16, 16), (40, 16), (16, 40), (40, 40)].map { Int(picture[$0.1 * 640 + $0.0]) }
                let number = Self.number(in: picture, stride: 640, x: 0, y: 0, width: 640, height: 360)
                let kind = corner.allSatisfy { $0 > 200 } ? "main" : corner.allSatisfy { $0 < 40 } ? "sub" : "other"
                kinds.append(mean < 24 ? "black" : grid ? "grid" : number == nil ? "other" : kind)
            }
            // The grid until the wall's next picture, the sub-stream's pictures filling the
            // window until the main stream's first, then the main stream alone.
            let order = kinds.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            #expect(Array(order.drop { $0 == "grid" }) == ["sub", "main"], "\(order)")
            print("zoom: \(order.joined(separator: " → ")) over \(kinds.count) wall pictures")
        }

        /// The wall in a window (Xvfb): each tile of a screenshot is one of its camera's
        /// pictures as ffmpeg decodes and converts it (≥ 35 dB against the closest).
        @Test(.timeLimit(.minutes(3))) func theWindowShowsEachCamera() throws {
            let files = try (0..<4).map { try Self.numberedCamera($0, width: 320, height: 180, rate: 15) }
            let cameras = try WallCameras(files.enumerated().map { ("cam\($0.offset + 1)", $0.element) })
            defer { cameras.stop() }
            let display = try VirtualDisplay()
            defer { display.stop() }
            let log = try Paths.temporaryDirectory().appendingPathComponent("wall.log").path
            let wall = try BackgroundProcess(Paths.reel, ["wall", "--no-audio", "--no-labels", "--size", "640x360"] + (1...4).map { cameras.url("cam\($0)") },
                                             environment: ["DISPLAY": display.name], errorPath: log)
            defer { wall.stop() }
            guard let window = try display.window(titled: "reel wall") else {
                throw TestSetupError("no wall window: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            #expect(window.width == 640 && window.height == 360, "\(window)")
            let shot = try Paths.temporaryDirectory().appendingPathComponent("wall.png").path
            for camera in 0..<4 {
                let crop = (x: window.x + (camera % 2) * 320, y: window.y + (camera / 2) * 180, width: 320, height: 180)
                // Until every camera has shown a picture, a tile may still be black: shot again.
                let quality = try display.waitFor({ () -> Double in
                    try display.screenshot(to: shot)
                    return (try? VirtualDisplay.bestPSNR(shot, crop: crop, amongPicturesOf: files[camera], conversion: SubtitleTests.accurateRGB)) ?? 0
                }, until: { $0 >= 35 })
                #expect(quality >= 35, "tile \(camera + 1): \(quality) dB against the closest of its camera's pictures")
                print("wall window tile \(camera + 1): \(String(format: "%.1f", quality)) dB")
            }
        }

        /// `Examples/CameraWall` (the DocC article's program): two cameras for 4 s, the first
        /// filling the picture for a second; each tile's pictures shown, and the wall's.
        @Test(.timeLimit(.minutes(2))) func theExampleShowsEveryCamera() throws {
            let files = try (0..<2).map { try Self.numberedCamera($0, width: 320, height: 180, rate: 15) }
            let cameras = try WallCameras([("cam1", files[0]), ("cam2", files[1])])
            defer { cameras.stop() }
            let result = try Processes.run(Paths.example("camera-wall"), ["4", cameras.url("cam1"), cameras.url("cam2")], timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
            // "SHOWN DROPPED NAME" a camera (names may hold spaces), then "PICTURES wall".
            let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2) }
            let shown = lines.dropLast().compactMap { $0.first.flatMap { Int($0) } }
            #expect(lines.count == 3 && shown.allSatisfy { $0 >= 20 }, "\(result.stdout)")
            #expect(lines.last.flatMap { $0.count == 2 && $0[1] == "wall" ? Int($0[0]) : nil }.map { $0 >= 30 } == true, "\(result.stdout)")
        }

        /// Faults on a wall of four: camera 1's server killed (its connection closes) comes
        /// back at its first reconnect attempt, its tile saying "reconnecting" meanwhile; a
        /// camera that accepts the connection and never answers, and one that refuses the
        /// credentials (401), say so in their tiles. Camera 2 plays on through all of it: no
        /// picture of it missing from the wall beyond the one a 30-a-second wall may merge.
        @Test(.timeLimit(.minutes(3))) func aCameraThatGoesAwayComesBackAndTheOthersNeverWait() async throws {
            let files = try (0..<2).map { try Self.numberedCamera($0, width: 320, height: 180, rate: 15) }
            let cameras = try WallCameras([("cam1", files[0]), ("cam2", files[1])])
            defer { cameras.stop() }
            let locked = try ServerPlaybackTests.RTSPServerTests.Server(serving: try ServerPlaybackTests.RTSPServerTests.clip())
            defer { locked.stop() }
            let silentPort = LocalPorts.random()
            let silent = try BackgroundProcess("/usr/bin/python3", ["-c", """
                import socket
                listener = socket.socket()
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                listener.bind(("127.0.0.1", \(silentPort)))
                listener.listen()
                held = []
                while True:
                    held.append(listener.accept())
                """])
            defer { silent.stop() }
            // Listening before the wall asks: a camera that answers the connection and then nothing.
            try waitFor("the silent camera's listener", while: silent) { try silent.isListening(on: UInt16(silentPort)) }
            var configuration = WallConfiguration()
            configuration.width = 640
            configuration.height = 360
            configuration.player.input = DemuxOptions(timeout: 2)
            // The lines are read from `tileLabels`; drawn, they would cover the numbers.
            configuration.showsLabels = false
            let wall = Wall(cameras: [WallCamera(name: "one", main: cameras.url("cam1")), WallCamera(name: "two", main: cameras.url("cam2")),
                                      WallCamera(name: "silent", main: "rtsp://127.0.0.1:\(silentPort)/camera"),
                                      WallCamera(name: "locked", main: locked.securedVideo)],
                            configuration: configuration, output: { HeadlessWallOutput() }, audioOutput: { nil })
            let pictures = LockedPictures()
            let subscription = wall.frameTap.subscribe(format: .i420, bufferLimit: 1000) { sample in
                let buffer = sample.pixelBuffer, plane = buffer.planes[0]
                pictures.append((0..<buffer.height).flatMap { Array(UnsafeBufferPointer(start: plane.row($0), count: buffer.width)) })
            }
            defer { subscription.cancel() }
            wall.start()
            var firstPictures = Set<Int>(), cutAt: Int?, backAt: Int?, reconnectingLine: String?
            var silentLine: String?, lockedLine: String?
            for await event in wall.events {
                switch event {
                case .firstPicture(let camera, _):
                    firstPictures.insert(camera)
                    if cutAt == nil, firstPictures.isSuperset(of: [0, 1]) {
                        // Two seconds of both first, counted in wall pictures.
                        while pictures.count < 60 { try await Task.sleep(for: .milliseconds(20)) }
                        cutAt = pictures.count
                        cameras.cut("cam1")
                    }
                case .player(camera: 0, _, .reconnecting) where reconnectingLine == nil:
                    reconnectingLine = wall.tileLabels[0].text
                    try cameras.restore("cam1")
                case .player(camera: 0, _, .firstPictureAfterReconnect):
                    backAt = pictures.count
                case .openFailed(camera: 2, _, _) where silentLine == nil: silentLine = wall.tileLabels[2].text
                case .openFailed(camera: 3, _, _) where lockedLine == nil: lockedLine = wall.tileLabels[3].text
                default: break
                }
                if backAt != nil, silentLine != nil, lockedLine != nil { break }
            }
            // A second more of both.
            let end = (backAt ?? 0) + 30
            while pictures.count < end { try await Task.sleep(for: .milliseconds(20)) }
            wall.stop()

            #expect(reconnectingLine?.contains("reconnecting") == true, "camera 1's line while it was away: \(reconnectingLine ?? "none")")
            #expect(silentLine?.hasPrefix("silent · ") == true && silentLine != "silent · opening", "\(silentLine ?? "none")")
            #expect(lockedLine?.hasPrefix("locked · ") == true, "\(lockedLine ?? "none")")
            let all = pictures.values
            let during = Array(all[(cutAt ?? 0)..<min(end, all.count)])
            let numbers = during.compactMap { Self.number(in: $0, stride: 640, x: 320, y: 0, width: 320, height: 180) }
            let steps = zip(numbers, numbers.dropFirst()).map { ($1 - $0 + 120) % 120 }.filter { $0 != 0 }
            #expect(numbers.count == during.count, "camera 2 unreadable in \(during.count - numbers.count) wall pictures")
            // Camera 2 (15 a second) goes on: a tile held up while camera 1's reconnects wait on
            // their timeouts would skip a dozen numbers or more; a loaded machine's late paint, a few.
            #expect(steps.allSatisfy { $0 <= 4 }, "camera 2 during camera 1's outage: \(numbers)")
            let one = during.compactMap { Self.number(in: $0, stride: 640, x: 0, y: 0, width: 320, height: 180) }
            print("wall faults: camera 1 away for \((backAt ?? 0) - (cutAt ?? 0)) wall pictures (\(reconnectingLine ?? "")), camera 2 \(steps.count) steps, "
                  + "largest \(steps.max() ?? 0); \(silentLine ?? ""); \(lockedLine ?? ""); camera 1 readable in \(one.count) of \(during.count)")
        }
    }
}

/// Pictures collected from a tap's queue while the test waits.
final class LockedPictures: @unchecked Sendable {
    private let lock = NSLock()
    private var pictures: [[UInt8]] = []
    func append(_ picture: [UInt8]) { lock.withLock { pictures.append(picture) } }
    var count: Int { lock.withLock { pictures.count } }
    var values: [[UInt8]] { lock.withLock { pictures } }
}

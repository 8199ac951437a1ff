import Testing
import ReelCore

@Suite struct WallStateTests {
    @Test func theGridPlaysSubStreamsSilently() {
        let wall = WallState(hasSubStream: [true, false, true])
        #expect(wall.start() == [.open(camera: 0, stream: .sub), .open(camera: 1, stream: .main), .open(camera: 2, stream: .sub)])
        #expect(wall.visible == [0, 1, 2] && wall.chosen == nil && wall.zoomed == nil)
    }

    @Test func choosingMovesTheSound() {
        var wall = WallState(hasSubStream: [true, true])
        #expect(wall.apply(.choose(0)) == [.sound(camera: 0, stream: .sub, on: true)])
        #expect(wall.apply(.choose(0)) == [], "chosen already")
        #expect(wall.apply(.choose(1)) == [.sound(camera: 0, stream: .sub, on: false), .sound(camera: 1, stream: .sub, on: true)])
        #expect(wall.apply(.choose(2)) == [] && wall.chosen == 1, "no tile 3")
        #expect(wall.apply(.zoom) == [.open(camera: 1, stream: .main)])
    }

    /// Enter starts the main stream and keeps the sub-stream on screen (and heard) until the
    /// main stream's first picture; only then is the sub-stream stopped. Esc does the reverse.
    @Test func aZoomedTileSwitchesStreamsWithoutABlackFrame() {
        var wall = WallState(hasSubStream: [true, true])
        #expect(wall.apply(.zoom) == [], "nothing chosen")
        _ = wall.apply(.choose(1))
        #expect(wall.apply(.zoom) == [.open(camera: 1, stream: .main)])
        #expect(wall.visible == [1] && wall.shown[1] == .sub && wall.starting[1] == .main)
        #expect(wall.firstPicture(camera: 1, stream: .sub) == [], "not the stream starting")
        #expect(wall.firstPicture(camera: 1, stream: .main)
            == [.sound(camera: 1, stream: .sub, on: false), .sound(camera: 1, stream: .main, on: true), .stop(camera: 1, stream: .sub)])
        #expect(wall.shown[1] == .main && wall.starting[1] == nil)
        #expect(wall.apply(.back) == [.open(camera: 1, stream: .sub)])
        #expect(wall.visible == [0, 1] && wall.shown[1] == .main)
        #expect(wall.firstPicture(camera: 1, stream: .sub)
            == [.sound(camera: 1, stream: .main, on: false), .sound(camera: 1, stream: .sub, on: true), .stop(camera: 1, stream: .main)])
        #expect(wall.apply(.back) == [], "in the grid already")
    }

    @Test func backBeforeTheMainStreamShowedStopsItUnseen() {
        var wall = WallState(hasSubStream: [true])
        #expect(wall.apply(.zoomTile(0)) == [.sound(camera: 0, stream: .sub, on: true), .open(camera: 0, stream: .main)])
        #expect(wall.apply(.back) == [.stop(camera: 0, stream: .main)])
        #expect(wall.shown[0] == .sub && wall.starting[0] == nil)
        #expect(wall.firstPicture(camera: 0, stream: .main) == [], "a late first picture of the stopped stream changes nothing")
    }

    @Test func aCameraWithoutASubStreamKeepsItsOnlyStream() {
        var wall = WallState(hasSubStream: [false, true])
        #expect(wall.apply(.zoomTile(0)) == [.sound(camera: 0, stream: .main, on: true)])
        #expect(wall.visible == [0])
        #expect(wall.apply(.back) == [] && wall.visible == [0, 1])
    }

    /// In a tile that fills the window, another number moves the window to that camera: the
    /// first goes back to its sub-stream, the other to its main stream.
    @Test func choosingAnotherCameraWhileZoomedMovesTheZoom() {
        var wall = WallState(hasSubStream: [true, true, true])
        _ = wall.apply(.zoomTile(0))
        _ = wall.firstPicture(camera: 0, stream: .main)
        #expect(wall.apply(.choose(2)) == [.open(camera: 0, stream: .sub), .sound(camera: 0, stream: .main, on: false),
                                           .sound(camera: 2, stream: .sub, on: true), .open(camera: 2, stream: .main)])
        #expect(wall.zoomed == 2 && wall.chosen == 2 && wall.visible == [2])
        #expect(wall.apply(.zoomTile(2)) == [])
    }
}

@Suite struct WallTileLabelTests {
    @Test func theLineSaysWhatTheTileIsDoing() {
        var label = WallTileLabel(name: "Front door")
        #expect(label.text == "Front door")
        label.state = .opening
        #expect(label.text == "Front door · opening")
        label.state = .playing
        label.size = (640, 360)
        label.framesPerSecond = 14.7
        label.latency = 0.1204
        #expect(label.text == "Front door · playing · 640×360 · 15 fps · 120 ms")
        label.bitRate = 850_400
        #expect(label.text == "Front door · playing · 640×360 · 15 fps · 850 kbit/s · 120 ms")
        label.playsMainStream = true
        label.size = (1280, 720)
        label.bitRate = 4_260_000
        #expect(label.text == "Front door · playing · 1280×720 main · 15 fps · 4.3 Mbit/s · 120 ms")
        label.problem = "401 Unauthorized"
        #expect(label.text.hasPrefix("Front door · 401 Unauthorized · "))
    }

    /// A wall keeps each tile's line while its label holds the same facts: any fact changed
    /// makes the label differ, even one that reads the same (14.7 and 15.1 fps both say 15).
    @Test func aLabelHoldsTheSameFactsOnlyWhenEveryFactIsTheSame() {
        var label = WallTileLabel(name: "Gate")
        label.state = .playing
        label.size = (640, 360)
        label.framesPerSecond = 14.7
        label.bitRate = 850_000
        label.latency = 0.12
        #expect(label.holdsTheSame(as: label))
        let changes: [(inout WallTileLabel) -> Void] = [
            { $0.name = "Yard" }, { $0.state = .paused }, { $0.problem = "timed out" }, { $0.size = (640, 368) },
            { $0.size = nil }, { $0.framesPerSecond = 15.1 }, { $0.bitRate = 851_000 }, { $0.latency = nil }, { $0.playsMainStream = true },
        ]
        for (index, change) in changes.enumerated() {
            var other = label
            change(&other)
            #expect(!label.holdsTheSame(as: other), "change \(index)")
        }
    }
}

@Suite struct WallKeysTests {
    @Test func numbersChooseEnterZoomsEscapeGoesBack() {
        #expect(WallKeys.input(for: .character("1")) == .command(.choose(0)))
        #expect(WallKeys.input(for: .character("9")) == .command(.choose(8)))
        #expect(WallKeys.input(for: .character("0")) == nil)
        #expect(WallKeys.input(for: .enter) == .command(.zoom))
        #expect(WallKeys.input(for: .escape) == .command(.back))
        #expect(WallKeys.input(for: .character("q")) == .quit)
        #expect(WallKeys.input(for: .space) == nil && WallKeys.input(for: .character("f")) == nil)
    }
}

@Suite struct WallCameraFolderTests {
    @Test func folderNamesAreSafe() {
        #expect(WallCamera(name: "Front door", main: "x").folderName == "Front door")
        #expect(WallCamera(name: "../etc/passwd", main: "x").folderName == ".._etc_passwd")
        #expect(WallCamera(name: "..", main: "x").folderName == "camera")
        #expect(WallCamera(name: " / ", main: "x").folderName == "_")
        #expect(WallCamera(name: "Caméra 2 (cour)", main: "x").folderName == "Caméra 2 _cour_")
    }
}

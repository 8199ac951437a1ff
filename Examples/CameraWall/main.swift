// A camera wall without a window, as a monitoring service runs one: every camera a tile of
// one picture (their sub-streams when a wall file names them), the first chosen and filling
// the picture after a second, then back to the grid; at the end, each tile's pictures shown.
//   example-camera-wall SECONDS URL...
// Output: one line a camera, "SHOWN DROPPED NAME", and "PICTURES wall".
import Foundation
import ReelPlayer

let arguments = CommandLine.arguments.dropFirst()
guard let seconds = arguments.first.flatMap(Double.init), seconds > 0, arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: example-camera-wall SECONDS URL...\n".utf8))
    exit(2)
}
var configuration = WallConfiguration()
configuration.width = 1280
configuration.height = 720
let wall = Wall(cameras: WallFile.cameras(urls: Array(arguments.dropFirst())), configuration: configuration,
                output: { HeadlessWallOutput() }, audioOutput: { nil })
wall.start()
// The first tile fills the picture at its first picture, for a second; then the grid again.
Task {
    for await event in wall.events {
        if case .firstPicture(camera: 0, stream: _) = event, wall.selection.zoomed == nil {
            wall.apply(.zoomTile(0))
            try? await Task.sleep(for: .seconds(1))
            wall.apply(.back)
        }
    }
}
try await Task.sleep(for: .seconds(seconds))
wall.stop()
for (camera, statistics) in zip(wall.cameras, wall.tileStatistics) {
    print("\(statistics.framesShown) \(statistics.framesDropped) \(camera.name)")
}
print("\(wall.picturesMade) wall")

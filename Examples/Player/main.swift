// A media player in thirty lines: a window and the sound card, or no device at all.
//   example-player FILE_OR_URL [--headless]
// Space pauses, the arrows seek and Q quits in the window; the events go to standard output.
import Foundation
import ReelPlayer
import ReelSDL

let arguments = CommandLine.arguments.dropFirst()
guard let input = arguments.first(where: { !$0.hasPrefix("--") }) else {
    FileHandle.standardError.write(Data("usage: example-player FILE_OR_URL [--headless]\n".utf8))
    exit(2)
}
let player = arguments.contains("--headless")
    ? Player.headless()
    : Player(videoOutput: { SDLVideoOutput(title: input) }, audioOutput: { SDLAudioOutput() })
do {
    try await player.open(input)
} catch {
    FileHandle.standardError.write(Data("example-player: \(error)\n".utf8))
    exit(1)
}
player.play()
events: for await event in player.events {
    switch event {
    case .firstFrame(let latency): print("first frame after \(Int(latency * 1000)) ms")
    case .stateChanged(let state):
        print("state: \(state.rawValue)")
        if state == .idle { break events }  // the window was closed
    case .endOfStream:
        print("ended at \(String(format: "%.2f", player.currentTime ?? 0)) s, \(player.statistics.framesShown) frames shown")
        break events
    case .error(let error):
        print("failed: \(error)")
        exit(1)
    default: continue
    }
}
player.stop()

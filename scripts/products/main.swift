// A new user's first program on the player product alone: probe a file, then play it
// headless with a frame tap, and print what was seen (scripts/check-products.sh).
import Foundation
import ReelPlayer

let path = CommandLine.arguments[1]
let info = try await MediaProbe.probe(path)
var configuration = Player.Configuration()
configuration.untimed = true
let player = Player.headless(configuration: configuration)
// Large enough to lose nothing: the count is compared with ffprobe's.
let subscription = player.frameTap.subscribe(format: .bgra, bufferLimit: 1000)
let consumer = Task { var count = 0; for await _ in subscription.samples { count += 1 }; return count }
try await player.open(path)
player.play()
for await event in player.events { if case .endOfStream = event { break } }
subscription.waitUntilIdle()
subscription.cancel()
let frames = await consumer.value
player.stop()
print("streams \(info.streams.count) frames \(frames)")

import Foundation
import ReelCore

// The window's keys and clicks (UserCommand), carried out through the public API on one
// serial queue, as mpv's input commands are.
extension Player {
    func perform(_ command: UserCommand) {
        commands.async { [self] in
            switch command {
            case .togglePause: state == .playing ? pause() : play()
            case .seekBy(let delta): seek(to: (currentTime ?? 0) + delta)
            case .seekTo(let fraction):
                if let window = timeshiftWindow {
                    seek(to: window.lowerBound + fraction * (window.upperBound - window.lowerBound))
                } else {
                    seek(to: fraction * (duration ?? 0))
                }
            case .goLive: goLive()
            case .toggleTalk:
                guard let toggle = lock.withLock({ pushToTalk }) else {
                    showMessage("No talk-back (reel play --talk)")
                    return
                }
                showMessage(toggle() ? "Talking" : "Not talking")
            case .changeVolume(let delta): volume += delta
            case .toggleMute: muted.toggle()
            case .changeRate(let delta): rate += delta
            case .changeChapter(let steps):
                guard let session = lock.withLock({ session }), !session.chapters.chapters.isEmpty else { return }
                if let target = session.chapters.target(from: currentTime ?? 0, steps: steps) {
                    seek(toChapter: target)
                } else if steps > 0, let duration {
                    // Past the last chapter: the end, as mpv goes.
                    seek(to: duration, mode: .exact)
                } else {
                    seek(to: 0, mode: .exact)
                }
            case .stepFrame(let forward): forward ? stepForward() : stepBackward()
            case .screenshot:
                do {
                    let path = try screenshot(inDirectory: configuration.screenshotDirectory)
                    showMessage("Screenshot: \((path as NSString).lastPathComponent)")
                    continuation.yield(.screenshotSaved(path: path))
                } catch {
                    showMessage("Screenshot failed: \(error)")
                    continuation.yield(.screenshotFailed(reason: "\(error)"))
                }
            case .cycleAudioTrack:
                let audio = tracks.filter { $0.type == .audio }
                guard let current = currentAudioTrack, let position = audio.firstIndex(of: current), audio.count > 1 else {
                    showMessage(audio.count > 1 ? "No audio playing" : "One audio track")
                    return
                }
                let next = audio[(position + 1) % audio.count]
                Task { [self] in
                    do {
                        try await selectAudioTrack(next.streamIndex)
                        showMessage(next.description)
                    } catch {
                        showMessage("Audio track: \(error)")
                    }
                }
            case .cycleSubtitleTrack:
                guard let subtitles = lock.withLock({ session })?.subtitles else {
                    showMessage("No subtitles")
                    return
                }
                // mpv's order: each track in turn, then none.
                let shownable = subtitles.tracks.filter(subtitles.canShow)
                let position = subtitles.shown.flatMap { shownable.firstIndex(of: $0) }
                let next = position.map { $0 + 1 < shownable.count ? shownable[$0 + 1] : nil } ?? shownable.first
                try? subtitles.show(next)
                showMessage(next.map { "Subtitles: \($0.description)" } ?? "Subtitles: none")
            case .toggleSubtitles:
                subtitlesVisible.toggle()
                showMessage(subtitlesVisible ? "Subtitles shown" : "Subtitles hidden")
            case .changeSubtitleDelay(let delta):
                subtitleDelay = ((subtitleDelay + delta) * 1000).rounded() / 1000
                showMessage("Subtitle delay: \(Int((subtitleDelay * 1000).rounded())) ms")
            case .toggleABLoop:
                var loop = abLoop
                loop.toggle(at: currentTime ?? 0)
                abLoop = loop
                showMessage(loop.description)
            case .movePlaylist(let offset): movePlaylistFromKey(by: offset)
            case .toggleFullscreen: break
            case .quit, .quitSavingPosition:
                continuation.yield(.quitAsked(savingPosition: command == .quitSavingPosition))
                stop()
            }
        }
    }
}

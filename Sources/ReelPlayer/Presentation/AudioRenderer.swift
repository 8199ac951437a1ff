import Foundation
import ReelCore
import ReelFFmpeg

/// Fills the audio device's buffers from the decoded audio queue (on the device's
/// thread), converting to the device format at the playback rate, and sets the audio
/// clock from the media time of the first sample the device will play.
final class AudioRenderer: @unchecked Sendable {
    /// Weak: a device may pull once more while the session is being torn down.
    private weak var session: PlaybackSession?
    private let format: AudioDeviceFormat
    private var converter: AudioConverter
    private var converterSerial = -1
    /// The user's filters and loudness normalization, before the conversion; nil without either.
    private let effects: LoudnessStage?
    /// `volumeGain` as a factor.
    private let gainFactor: Float
    /// A live jump (``PlaybackControl/liveJumps``) starts the media time anew, as a new timeline does.
    private var liveJumpsSeen = 0
    /// Converted samples not yet handed to the device, and the media time of the first.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var pendingMediaTime: Double?
    private var reachedEnd = false
    /// Sound of this timeline was played: a pull with nothing to give is an underrun only
    /// then (before, a live input's sound has not arrived yet, or a seek's is being decoded).
    private var playedSound = false

    /// An untimed device pulls again as soon as a pull returns: with nothing to give
    /// (paused, starved, ended) the pull waits this long, or it would spin on the lock.
    static let untimedIdleWait = 0.005

    /// How long an untimed device waits for the next decoded frame before it gives silence.
    static let untimedFrameWait = 0.25

    init(session: PlaybackSession, format: AudioDeviceFormat) {
        self.session = session
        self.format = format
        self.converter = AudioConverter(device: format)
        let configuration = session.configuration
        let normalizing = configuration.normalization == .on || (configuration.normalization == .auto && session.isLive)
        effects = configuration.audioFilters != nil || normalizing
            ? LoudnessStage(filters: configuration.audioFilters, normalizer: normalizing ? LoudnessNormalizer() : nil) : nil
        gainFactor = Float(pow(10, configuration.volumeGain / 20))
    }

    func render(into buffer: UnsafeMutableRawBufferPointer, heardAt: Double) {
        let output = buffer.bindMemory(to: Float.self)
        guard let session else {
            output.update(repeating: 0)
            return
        }
        let read = {
            session.control.read { ($0.paused || $0.buffering, $0.serial, $0.rate, $0.volume, $0.muted, $0.aborted, $0.liveJumps) }
        }
        var (paused, serial, rate, volume, muted, aborted, jumps) = read()
        // Untimed, a pull that comes while the player has not started yet (opened, about to
        // play) waits a moment for it rather than writing silence ahead of the sound.
        if paused && !aborted && session.configuration.untimed {
            let giveUp = session.clock.now + Self.untimedFrameWait
            while paused && !aborted && session.clock.now < giveUp {
                session.clock.sleep(for: Self.untimedIdleWait)
                (paused, serial, rate, volume, muted, aborted, jumps) = read()
            }
        }
        guard !paused, !aborted else {
            output.update(repeating: 0)
            return
        }
        if serial != converterSerial || abs(converter.tempo - rate) > 1e-6 || jumps != liveJumpsSeen {
            converter = AudioConverter(device: format, tempo: rate)
            if serial != converterSerial || jumps != liveJumpsSeen {
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                effects?.reset()
            }
            converterSerial = serial
            liveJumpsSeen = jumps
            pendingMediaTime = nil
            reachedEnd = false
            playedSound = false
        }
        var written = 0
        var firstSampleTime: Double?
        let untimedWait = session.configuration.untimed ? Self.untimedFrameWait : 0
        let secondsPerSample = rate / Double(format.sampleRate)
        while written < output.count {
            if pendingStart < pending.count, let mediaTime = pendingMediaTime {
                let count = min(pending.count - pendingStart, output.count - written)
                if firstSampleTime == nil { firstSampleTime = mediaTime }
                for index in 0..<count { output[written + index] = pending[pendingStart + index] }
                written += count
                pendingStart += count
                pendingMediaTime = mediaTime + Double(count / format.channels) * secondsPerSample
                continue
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            // Untimed, there is no time to keep: the next frame is waited for, so that the
            // sound written has no gaps of silence where the decoder had not caught up.
            guard !reachedEnd, let (item, itemSerial) = session.audioFrames.take(timeout: untimedWait) else { break }
            guard itemSerial == serial else { continue }
            if let frame = item.frame, session.isLive, let start = frame.presentationTime?.seconds,
               session.control.isBeforeTarget(serial: serial, time: start, duration: Double(frame.sampleCount) / Double(max(frame.sampleRate, 1))) {
                continue
            }
            do {
                // The sound goes on from the first frame the converter gets: the effects'
                // output, which a filter holding sound back puts behind the frame taken.
                let played = try effects.map { try $0.push(item.frame) } ?? item.frame.map { [$0] } ?? []
                for frame in played {
                    if pendingMediaTime == nil { pendingMediaTime = frame.presentationTime?.seconds ?? 0 }
                    try converter.push(frame)
                }
                if item.frame == nil { try converter.push(nil) }
                converter.pull { bytes, _ in pending.append(contentsOf: bytes.bindMemory(to: Float.self)) }
            } catch {
                session.fail(error)
                break
            }
            if item.frame == nil {
                reachedEnd = true
                if pending.isEmpty { session.streamFinished(video: false, serial: serial) }
            }
        }
        if written < output.count {
            for index in written..<output.count { output[index] = 0 }
            if playedSound && !reachedEnd && !session.control.read({ $0.readerAtEnd }) { session.control.record { $0.statistics.audioUnderruns += 1 } }
            if reachedEnd && written == 0 && pending.isEmpty { session.streamFinished(video: false, serial: serial) }
            if written == 0 && session.configuration.untimed { session.audioFrames.waitForElement(timeout: Self.untimedIdleWait) }
        }
        if written > 0 { playedSound = true }
        if let firstSampleTime, let overlays = session.overlays {
            overlays.mixSounds(into: output, frames: written / format.channels, format: format, from: firstSampleTime - session.startTime,
                               step: secondsPerSample)
        }
        let gain = muted ? 0 : Float(volume * volume) * gainFactor
        if gain != 1 { for index in 0..<written { output[index] *= gain } }
        if let firstSampleTime {
            session.control.update { control in
                control.audioClock.set(firstSampleTime, serial: serial, at: heardAt)
                control.audioClock.setSpeed(rate, at: heardAt)
            }
        }
    }
}

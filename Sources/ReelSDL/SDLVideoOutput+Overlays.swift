import CSDL2
import ReelCore
import ReelText

// What is drawn over the picture: the status bar (seek bar, state, time, rate, chapter,
// volume), the passing message and the list of keys.
extension SDLVideoOutput {
    func destroyHelp() {
        for index in helpLabels?.indices ?? [].indices {
            helpLabels?[index].keys.destroy()
            helpLabels?[index].action.destroy()
        }
        helpLabels = nil
    }

    /// The passing message at the top left, and the list of keys when `?` asked for it.
    func drawOverlays(width: Int, height: Int) {
        guard let renderer else { return }
        if helpLabels != nil {
            let lines = WindowKeys.bindings
            let lineHeight = max(min((height - 20) / lines.count, 24), 8)
            let boxWidth = min(width - 20, lineHeight * 18), keysWidth = lineHeight * 5
            shade(SDL_Rect(x: 10, y: 10, w: Int32(boxWidth), h: Int32(lineHeight * lines.count + 10)))
            for (index, line) in lines.enumerated() {
                let top = 15 + index * lineHeight
                helpLabels?[index].keys.draw(line.label, in: PixelRect(x: 20, y: top, width: keysWidth - 8, height: lineHeight),
                                             renderer: renderer, rasterizer: rasterizer, leftAligned: true)
                helpLabels?[index].action.draw(line.help, in: PixelRect(x: 20 + keysWidth, y: top, width: boxWidth - keysWidth - 20, height: lineHeight),
                                               renderer: renderer, rasterizer: rasterizer, leftAligned: true)
            }
        }
        // The message last: over the list too.
        if let message = lastStatus?.message {
            let lineHeight = max(min(height / 16, 28), 12)
            shade(SDL_Rect(x: 6, y: 6, w: Int32(width - 12), h: Int32(lineHeight + 6)))
            messageLabel.draw(message, in: PixelRect(x: 12, y: 9, width: width - 24, height: lineHeight),
                              renderer: renderer, rasterizer: rasterizer, leftAligned: true)
        }
    }

    /// Darkens `rect` so that text over the picture reads.
    func shade(_ rect: SDL_Rect) {
        var rect = rect
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 200)
        SDL_RenderFillRect(renderer, &rect)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }

    func drawBar(width: Int32, height: Int32) {
        guard let renderer, let status = lastStatus else { return }
        let top = height - barHeight
        fill(SDL_Rect(x: 0, y: top, w: width, h: barHeight), 24, 24, 24)
        // A live input's timeshift: the bar spans what can be gone back to, its right end live.
        let span = status.timeshiftWindow ?? status.duration.map { 0...max($0, 0) }
        let fraction = span.map { $0.upperBound > $0.lowerBound ? min(max((status.position - $0.lowerBound) / ($0.upperBound - $0.lowerBound), 0), 1) : 0 } ?? 0
        fill(SDL_Rect(x: 0, y: top, w: width, h: 4), 70, 70, 70)
        fill(SDL_Rect(x: 0, y: top, w: Int32(Double(width) * fraction), h: 4), 230, 60, 50)
        // State: two bars when paused, a block when playing.
        if status.state == .paused {
            fill(SDL_Rect(x: 8, y: top + 9, w: 4, h: 14), 230, 230, 230)
            fill(SDL_Rect(x: 15, y: top + 9, w: 4, h: 14), 230, 230, 230)
        } else {
            for step in 0..<7 { fill(SDL_Rect(x: 8 + Int32(step) * 2, y: top + 9 + Int32(step), w: 2, h: 14 - Int32(step) * 2), 230, 230, 230) }
        }
        // In a timeshift, how far behind the newest media instead of the duration.
        let end = status.timeshiftWindow.map { " -" + OSDFont.clock(max($0.upperBound - status.position, 0)) }
        var text = OSDFont.clock(status.position) + (end ?? " / " + (status.duration.map(OSDFont.clock) ?? "-:--"))
        if abs(status.rate - 1) > 0.01 { text += "  " + String(format: "%.1fx", status.rate) }
        let scale: Int32 = 3
        for cell in OSDFont.cells(text) {
            fill(SDL_Rect(x: 30 + Int32(cell.x) * scale, y: top + 8 + Int32(cell.y) * scale, w: scale, h: scale), 230, 230, 230)
        }
        if let chapter = status.chapterTitle {
            let left = 30 + Int(scale) * (OSDFont.width + 1) * text.count + 12
            chapterLabel.draw(chapter, in: PixelRect(x: left, y: Int(top) + 5, width: Int(width) - 80 - left, height: 20),
                              renderer: renderer, rasterizer: rasterizer)
        }
        // Volume at the right: a bar, grey when muted.
        let level = status.muted ? 0 : status.volume
        fill(SDL_Rect(x: width - 70, y: top + 12, w: 60, h: 8), 70, 70, 70)
        fill(SDL_Rect(x: width - 70, y: top + 12, w: Int32(60 * level), h: 8), status.muted ? 120 : 90, status.muted ? 120 : 200, status.muted ? 120 : 90)
        _ = renderer
    }

    func fill(_ rect: SDL_Rect, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
        var rect = rect
        SDL_SetRenderDrawColor(renderer, r, g, b, 255)
        SDL_RenderFillRect(renderer, &rect)
    }
}

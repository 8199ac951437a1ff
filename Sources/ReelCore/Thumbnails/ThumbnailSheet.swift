import Foundation

/// Thumbnails of a video laid out on sprite sheets, and the WebVTT index web players
/// read for seek-bar previews (video.js, Plyr, JW Player: each cue names the sheet and the
/// thumbnail's rectangle, `sheet.jpg#xywh=160,0,160,90`).
public struct ThumbnailSheet: Sendable, Equatable {
    /// A thumbnail's width in pixels.
    public var width: Int
    /// A thumbnail's height in pixels.
    public var height: Int
    /// Thumbnails per row of a sheet.
    public var columns: Int
    /// Rows per sheet; more thumbnails go on the next sheet.
    public var rows: Int
    /// Where each thumbnail's stretch of the video starts, seconds, in order.
    public var times: [Double]
    /// The video's length: the last thumbnail's stretch ends there.
    public var duration: Double

    /// A layout of thumbnails `width`×`height` taken at `times`.
    public init(width: Int, height: Int, columns: Int = 10, rows: Int = 10, times: [Double], duration: Double) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        self.times = times
        self.duration = duration
    }

    /// A thumbnail every `every` seconds from the start of a video `duration` long
    /// (at least one; at most `limit`, spread evenly when more would be needed).
    public static func times(duration: Double, every: Double, limit: Int = 10_000) -> [Double] {
        guard duration.isFinite, duration > 0, every.isFinite, every > 0 else { return [0] }
        let count = min(max(Int((duration / every).rounded(.up)), 1), max(limit, 1))
        let step = max(every, duration / Double(count))
        return (0..<count).map { Double($0) * step }.filter { $0 < duration }
    }

    /// How many sheets the thumbnails take.
    public var sheetCount: Int { max((times.count + columns * rows - 1) / (columns * rows), 1) }

    /// Thumbnail `index`'s sheet and its top-left corner on it.
    public func place(of index: Int) -> (sheet: Int, x: Int, y: Int) {
        let perSheet = columns * rows
        let onSheet = index % perSheet
        return (index / perSheet, (onSheet % columns) * width, (onSheet / columns) * height)
    }

    /// The size of sheet `sheet`: as many rows as it holds thumbnails for.
    public func size(ofSheet sheet: Int) -> (width: Int, height: Int) {
        let perSheet = columns * rows
        let held = min(max(times.count - sheet * perSheet, 0), perSheet)
        let usedRows = max((held + columns - 1) / columns, 1)
        return (min(held, columns) * width, usedRows * height)
    }

    /// The WebVTT index: a cue per thumbnail, from its time to the next one's, naming
    /// `sheetName(sheet)` and the rectangle.
    public func webVTT(sheetName: (Int) -> String) -> String {
        var text = "WEBVTT\n"
        for (index, start) in times.enumerated() {
            let end = index + 1 < times.count ? times[index + 1] : max(duration, start)
            let place = place(of: index)
            text += "\n\(Self.timestamp(start)) --> \(Self.timestamp(end))\n\(sheetName(place.sheet))#xywh=\(place.x),\(place.y),\(width),\(height)\n"
        }
        return text
    }

    /// `hh:mm:ss.mmm`, as WebVTT writes times.
    static func timestamp(_ seconds: Double) -> String {
        let milliseconds = Int((max(seconds, 0) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
    }
}

import ArgumentParser
import Reel
import ReelSDL

/// The main window's shape and place, as mpv's options name them.
struct WindowOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The picture area's size and the window's position, as mpv's: WxH, W, xH, W%, with +X+Y or -X-Y (from the bottom right).",
                               valueName: "geometry"))
    var geometry: String?

    @Flag(name: .customLong("fs"), help: "Open fullscreen; f leaves it.")
    var fullscreen = false

    @Flag(help: "Keep the window above the others.")
    var ontop = false

    @Option(help: "How the picture fills a window of another shape: fit (black bars), fill (edges cut), stretch; g cycles them.")
    var gravity: String = "fit"

    @Option(help: ArgumentHelp("Show the picture at this display aspect ratio instead of its own (sample aspect ratio applied).", valueName: "W:H"))
    var aspect: String?

    func validate() throws {
        if let geometry, WindowGeometry(parsing: geometry) == nil {
            throw ValidationError("--geometry takes WxH, W, xH or W% with an optional +X+Y or -X-Y, as mpv's (got \(geometry))")
        }
        guard VideoGravity(rawValue: gravity) != nil else { throw ValidationError("--gravity must be fit, fill or stretch (got \(gravity))") }
        if let aspect, aspectRatio(aspect) == nil { throw ValidationError("--aspect takes W:H with both positive, e.g. 16:9 (got \(aspect))") }
    }

    private func aspectRatio(_ text: String) -> Double? {
        guard let ratio = AspectRatio(parsing: text), ratio.ratio.numerator > 0, ratio.ratio.denominator > 0 else { return nil }
        let value = Double(ratio.ratio.numerator) / Double(ratio.ratio.denominator)
        return (0.01...100).contains(value) ? value : nil
    }

    /// Whether any option here was given.
    var isSet: Bool { geometry != nil || fullscreen || ontop || gravity != "fit" || aspect != nil }

    var options: SDLWindowOptions {
        var options = SDLWindowOptions()
        options.gravity = VideoGravity(rawValue: gravity) ?? .fit
        options.aspectOverride = aspect.flatMap(aspectRatio)
        options.geometry = geometry.flatMap(WindowGeometry.init(parsing:))
        options.fullscreen = fullscreen
        options.onTop = ontop
        return options
    }
}

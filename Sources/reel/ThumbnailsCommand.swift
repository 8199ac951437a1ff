import ArgumentParser
import Foundation
import Reel

struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Make seek-bar thumbnails: sprite sheets of a picture every N seconds, and the WebVTT index web players read.",
        discussion: """
            Each thumbnail is the keyframe at or before its time, scaled to --size. With more \
            thumbnails than --columns × --rows, the sheets after the first are named NAME-2.jpg, \
            NAME-3.jpg… The index's cues name each sheet and rectangle (sheet.jpg#xywh=X,Y,W,H), \
            relative to the index's folder. The format follows the output's extension: .jpg or .png.
            """)

    @Argument(help: "A video file, or any URL FFmpeg reads.")
    var input: String

    @Option(help: "Seconds between thumbnails.")
    var every: Double = 10

    @Option(help: ArgumentHelp("Each thumbnail's size.", valueName: "WxH"))
    var size = "160x90"

    @Option(help: "Thumbnails per row of a sheet.")
    var columns = 10

    @Option(help: "Rows per sheet.")
    var rows = 10

    @Option(name: .shortAndLong, help: ArgumentHelp("The first sprite sheet (.jpg or .png).", valueName: "sheet.jpg"))
    var output: String

    @Option(help: ArgumentHelp("Also write the WebVTT index here.", valueName: "sheet.vtt"))
    var vtt: String?

    @OptionGroup(title: "Network input") var network: NetworkInputOptions

    @OptionGroup var common: CommonOptions

    private var dimensions: (width: Int, height: Int)? {
        let parts = size.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...4096).contains(parts[0]), (1...4096).contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    private var isPNG: Bool { output.lowercased().hasSuffix(".png") }

    func validate() throws {
        guard every.isFinite, every >= 0.1 else { throw ValidationError("--every takes seconds, at least 0.1 (got \(every))") }
        guard dimensions != nil else { throw ValidationError("--size takes WIDTHxHEIGHT, each 1 to 4096 (got \(size))") }
        guard (1...100).contains(columns), (1...100).contains(rows) else { throw ValidationError("--columns and --rows take 1 to 100") }
        let lowered = output.lowercased()
        guard [".jpg", ".jpeg", ".png"].contains(where: lowered.hasSuffix) else { throw ValidationError("-o names a .jpg or .png file (got \(output))") }
    }

    /// Sheet `index`'s path: the output for the first, NAME-N.ext after.
    private func path(ofSheet index: Int) -> String {
        guard index > 0 else { return output }
        let url = URL(fileURLWithPath: output)
        let name = url.deletingPathExtension().lastPathComponent + "-\(index + 1)." + url.pathExtension
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    func run() async throws {
        common.setUpLogging()
        var options = common.demuxOptions
        let input = network.apply(to: self.input, options: &options)
        let (width, height) = dimensions!
        let made = try await failing { try await Thumbnails.generate(url: input, every: every, width: width, height: height, columns: columns, rows: rows, options: options) }
        let sheet = made.sheet
        for index in 0..<sheet.sheetCount {
            let picture = Thumbnails.picture(ofSheet: index, sheet, thumbnails: made.thumbnails)
            do {
                if isPNG { try PNGWriter.write(picture, to: path(ofSheet: index)) } else { try JPEGWriter.write(picture, to: path(ofSheet: index)) }
            } catch {
                throw fail("\(path(ofSheet: index)): \(error)")
            }
        }
        if let vtt {
            // Sheets are named relative to the index, as players resolve them.
            let folder = URL(fileURLWithPath: vtt).deletingLastPathComponent().standardizedFileURL.path
            let index = sheet.webVTT { number in
                let sheetPath = URL(fileURLWithPath: path(ofSheet: number)).standardizedFileURL.path
                return sheetPath.hasPrefix(folder + "/") ? String(sheetPath.dropFirst(folder.count + 1)) : sheetPath
            }
            do {
                try index.write(toFile: vtt, atomically: true, encoding: .utf8)
            } catch {
                throw fail("--vtt \(vtt): \(error.localizedDescription)")
            }
        }
        FileHandle.standardError.write(Data("reel: \(made.thumbnails.count) thumbnails on \(sheet.sheetCount) sheet\(sheet.sheetCount == 1 ? "" : "s")\n".utf8))
    }
}

import ArgumentParser
import Foundation
import Reel

struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Describe an input's container, chapters and streams.",
        discussion: "The JSON keys are documented in docs/probe-json.md.")

    @Argument(help: "A file, or any URL FFmpeg reads (http, https, hls, rtmp, rtsp, udp, an SDP file), or a WHEP endpoint (whep+https://…).")
    var input: String

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup(title: "Network input") var network: NetworkInputOptions

    @OptionGroup var common: CommonOptions

    func run() async throws {
        common.setUpLogging()
        var demuxOptions = common.demuxOptions
        let input = network.apply(to: self.input, options: &demuxOptions)
        let info = try await failing { try await MediaProbe.probe(input, options: demuxOptions, whepToken: network.whepToken) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(info), as: UTF8.self))
        } else {
            print(info.tableDescription)
            print("Engine (--engine auto): \(EngineSelection.automatic.decision(for: input, timeout: demuxOptions.timeout))")
            let hardware = GStreamer.hardwareVideoDecoders()
            print("GStreamer's hardware video decoders: \(hardware.isEmpty ? "none (no VA-API, NVDEC or V4L2 plug-in here; it decodes in software)" : hardware.joined(separator: ", "))")
        }
    }
}

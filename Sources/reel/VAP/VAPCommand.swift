import ArgumentParser

struct VAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vap",
        abstract: "Alpha-video animations in Tencent's VAP format.",
        subcommands: [VAPInfoCommand.self, VAPPlayCommand.self, VAPRenderCommand.self, VAPPackCommand.self])
}

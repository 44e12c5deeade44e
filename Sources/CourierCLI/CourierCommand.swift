import ArgumentParser

/// The `courier` command: the reference server, the Radar client, the demo and the benchmarks.
@main
struct CourierCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier",
        abstract: "Courier: a Swift networking layer, with its reference server, demo and benchmarks.",
        subcommands: [DemoCommand.self, ServeCommand.self, GetCommand.self, PostCommand.self, PutCommand.self, PatchCommand.self, DeleteCommand.self, DownloadCommand.self, RadarCommand.self, IntervalsCommand.self, ClarityCommand.self, LoginCommand.self, LogoutCommand.self, WhoAmICommand.self, BenchCommand.self, SoakCommand.self, ConformanceCommand.self, QueueChildCommand.self, FleetCommand.self, FleetWorkerCommand.self, DownloadChildCommand.self, TransferChildCommand.self]
    )
}

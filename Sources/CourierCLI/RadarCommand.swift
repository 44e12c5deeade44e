import ArgumentParser
import Courier
import RadarAPI
import RadarCore

/// `courier radar …`: the Radar API from the command line.
struct RadarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "radar",
        abstract: "Talk to a Radar server (see `courier serve`).",
        subcommands: [List.self, Show.self, Create.self, Delete.self, Refresh.self, Opinions.self, Trends.self, Interpret.self, RadarWatchCommand.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List radars, newest first.")
        @OptionGroup var server: ServerOptions
        @Option(help: "Page size (1…100).") var limit: Int = 20
        @Option(help: "How many to skip.") var offset: Int = 0

        func run() async throws {
            let page = try await server.withRadarClient { try await $0.list(limit: limit, offset: offset) }
            // The total comes from `X-Total-Count` when the server sends one; the body is the bare list.
            print(page.total.map { "\(page.items.count) of \($0) radars" } ?? "\(page.items.count) radars")
            for radar in page.items { print(RadarFormatting.line(radar)) }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one radar with its opinions.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The radar's id.") var id: String

        func run() async throws {
            let radar = try await server.withRadarClient { try await $0.get(id: id) }
            print(RadarFormatting.detail(radar))
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start tracking a topic.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The topic.") var topic: String
        @Flag(help: "Make the radar public.") var `public` = false

        func run() async throws {
            let radar = try await server.withRadarClient { try await $0.create(topic: topic, isPublic: `public`) }
            print("created \(radar.id)")
            print(RadarFormatting.detail(radar))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a radar.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The radar's id.") var id: String

        func run() async throws {
            try await server.withRadarClient { try await $0.delete(id: id) }
            print("deleted \(id)")
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Poll the models again.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The radar's id.") var id: String

        func run() async throws {
            let radar = try await server.withRadarClient { try await $0.refresh(id: id) }
            print(RadarFormatting.detail(radar))
        }
    }

    struct Opinions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a radar's opinions.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The radar's id.") var id: String

        func run() async throws {
            let opinions = try await server.withRadarClient { try await $0.opinions(id: id) }
            for opinion in opinions { print(RadarFormatting.line(opinion)) }
        }
    }

    struct Trends: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show daily stance counts.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The radar's id.") var id: String
        @Option(help: "Days back (1…90).") var days: Int = 7

        func run() async throws {
            let trend = try await server.withRadarClient { try await $0.trends(id: id, days: days) }
            for point in trend.data { print(RadarFormatting.line(point)) }
        }
    }

    struct Interpret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask how a topic would be read.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The topic.") var topic: String

        func run() async throws {
            let interpretation = try await server.withRadarClient { try await $0.interpret(topic: topic) }
            print(RadarFormatting.detail(interpretation))
        }
    }
}

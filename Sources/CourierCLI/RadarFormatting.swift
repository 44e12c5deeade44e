import Foundation
import RadarCore

/// Readable text for Radar values in the terminal.
enum RadarFormatting {
    static func line(_ radar: Radar) -> String {
        "\(radar.id)  \(radar.position.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(radar.topic)  (\(radar.opinions.count) opinions, refreshed \(radar.refreshCount)×)"
    }

    static func line(_ opinion: Opinion) -> String {
        let confidence = String(format: "%.0f%%", opinion.confidence * 100)
        return "  [\(opinion.stance.rawValue) \(confidence)] \(opinion.model): \(opinion.content)"
    }

    static func line(_ point: TrendPoint) -> String {
        let day = point.date.formatted(.iso8601.year().month().day())
        return "\(day)  for \(point.forCount)  against \(point.againstCount)  neutral \(point.neutralCount)  avg confidence \(String(format: "%.2f", point.averageConfidence))"
    }

    static func detail(_ radar: Radar) -> String {
        var lines = [line(radar)]
        lines.append("  reads as: \(radar.interpretation.text) [\(radar.interpretation.category)]")
        lines.append(contentsOf: radar.opinions.prefix(5).map(line))
        if radar.opinions.count > 5 { lines.append("  … \(radar.opinions.count - 5) more") }
        return lines.joined(separator: "\n")
    }

    static func detail(_ interpretation: Interpretation) -> String {
        "\(interpretation.text)\n  category: \(interpretation.category)\(interpretation.subCategory.map { " / \($0)" } ?? "")\n  tags: \(interpretation.tags.joined(separator: ", "))\n  sentiment: \(interpretation.sentiment.rawValue)"
    }
}

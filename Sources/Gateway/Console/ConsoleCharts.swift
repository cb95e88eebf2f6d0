import Foundation

/// Bar charts as inline SVG, drawn on the server: pictures with a text alternative (`<title>`, `<desc>` naming every
/// value), no script, no styles of their own (the console's stylesheet colours them).
enum ConsoleCharts {
    struct Bar {
        var label: String
        var value: Double
        /// What the value reads as, e.g. `12.34 EUR`.
        var text: String
        var isBad = false
    }

    static func bars(id: String, title: String, bars: [Bar]) -> String {
        let width = 720.0, height = 220.0, left = 40.0, bottom = 40.0, top = 12.0
        let maximum = max(bars.map(\.value).max() ?? 0, 1)
        let slot = (width - left) / Double(max(bars.count, 1))
        let barWidth = max(slot * 0.7, 2)
        var svg = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="\(id)-t \(id)-d">\
            <title id="\(id)-t">\(escape(title))</title>\
            <desc id="\(id)-d">\(escape(bars.map { "\($0.label): \($0.text)" }.joined(separator: "; ")))</desc>\
            <line class="axis" x1="\(left)" y1="\(height - bottom)" x2="\(width)" y2="\(height - bottom)"/>
            """
        for (index, bar) in bars.enumerated() {
            let barHeight = (height - bottom - top) * bar.value / maximum
            let x = left + Double(index) * slot + (slot - barWidth) / 2
            let y = height - bottom - barHeight
            svg += "<rect class=\"\(bar.isBad ? "bar-bad" : "bar-ok")\" x=\"\(f(x))\" y=\"\(f(y))\" "
            svg +=
                "width=\"\(f(barWidth))\" height=\"\(f(barHeight))\"><title>\(escape("\(bar.label): \(bar.text)"))</title></rect>"
            // Label every bar when they fit, else every fourth (hours).
            if bars.count <= 12 || index % 4 == 0 {
                svg += "<text x=\"\(f(x + barWidth / 2))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">"
                svg += "\(escape(bar.label))</text>"
            }
        }
        return svg + "</svg>"
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

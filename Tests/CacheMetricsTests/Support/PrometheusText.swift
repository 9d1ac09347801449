/// A page of the Prometheus text exposition format (version 0.0.4), parsed strictly: a line
/// that is not a comment, a blank or a well-formed sample fails the parse, so a test that reads
/// a scrape also checks that Prometheus could read it.
struct PrometheusText {
    /// One sample line: `name{label="value",…} number`.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// Why a line could not be read.
    struct ParseError: Error, CustomStringConvertible {
        let line: Int
        let text: String
        let problem: String
        var description: String { "line \(line): \(problem): \(text)" }
    }

    private(set) var samples: [Sample] = []
    /// Each family's `# TYPE`: `counter`, `gauge`, `histogram`, …
    private(set) var types: [String: String] = [:]
    /// Each family's `# HELP` text.
    private(set) var helps: [String: String] = [:]

    init(parsing text: String) throws {
        var series: Set<String> = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ problem: String) -> ParseError { ParseError(line: number, text: String(line), problem: problem) }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let words = line.split(separator: " ", maxSplits: 3)
                if words.count >= 2, words[1] == "TYPE" {
                    guard words.count == 4 else { throw fail("a TYPE line needs a name and a type") }
                    guard types.updateValue(String(words[3]), forKey: String(words[2])) == nil else { throw fail("a second TYPE line") }
                }
                if words.count >= 2, words[1] == "HELP" {
                    guard words.count == 4 else { throw fail("a HELP line needs a name and a text") }
                    guard helps.updateValue(String(words[3]), forKey: String(words[2])) == nil else { throw fail("a second HELP line") }
                }
                continue
            }
            let sample = try Self.sample(line, number: number)
            let identity = sample.name + "{" + sample.labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            guard series.insert(identity).inserted else { throw fail("the same series twice") }
            samples.append(sample)
        }
    }

    /// The value of the one sample with this name and exactly these labels; `nil` when absent.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The samples of one metric name.
    func samples(named name: String) -> [Sample] {
        samples.filter { $0.name == name }
    }

    private static func sample(_ line: Substring, number: Int) throws -> Sample {
        func fail(_ problem: String) -> ParseError { ParseError(line: number, text: String(line), problem: problem) }
        var rest = line[...]
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        guard let first = name.first, !first.isNumber else { throw fail("no metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                guard !label.isEmpty else { throw fail("no label name") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw fail("a label without =\"") }
                rest = rest.dropFirst(2)
                // Scalar by scalar, as Prometheus reads bytes: an escaped quote or line feed may
                // be part of a larger Character (`"` + a combining accent).
                var scalars = rest.unicodeScalars[...]
                var value = String.UnicodeScalarView()
                while let scalar = scalars.first, scalar != "\"" {
                    scalars = scalars.dropFirst()
                    guard scalar == "\\" else {
                        value.append(scalar)
                        continue
                    }
                    guard let escaped = scalars.first else { throw fail("an escape at the end") }
                    scalars = scalars.dropFirst()
                    switch escaped {
                    case "n": value.append("\n")
                    case "\\", "\"": value.append(escaped)
                    default: throw fail("an unknown escape \\\(escaped)")
                    }
                }
                rest = Substring(scalars)
                let valueText = String(value)
                guard rest.first == "\"" else { throw fail("an unclosed label value") }
                rest = rest.dropFirst()
                guard labels.updateValue(valueText, forKey: String(label)) == nil else { throw fail("label \(label) twice") }
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { throw fail("no , or } after a label") }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw fail("no space before the value") }
        let words = rest.dropFirst().split(separator: " ")
        guard (1...2).contains(words.count), let value = Double(words[0]) else { throw fail("no number as the value") }
        return Sample(name: String(name), labels: labels, value: value)
    }
}

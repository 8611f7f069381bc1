// SelectSentence.swift: SELECT a sentence by its number, through its rects.

extension LineClient {
    /// Selects sentence `number` of `id` (the connection needs a view of
    /// it) by SELECTing the middle of its first rect, as a reader's tap
    /// would; returns the SELECT reply's status line.
    @discardableResult
    func selectSentence(_ number: Int, of id: String) throws -> String? {
        let rects = try request("RECTS \(id) \(number)")
        guard let line = rects.first(where: { $0.hasPrefix("* rects ") }),
            let first = line.dropFirst("* rects ".count).split(separator: ";").first
        else { throw Failure(description: "RECTS \(id) \(number) gave no rects: \(rects)") }
        let values = first.split(separator: ",").compactMap { Double($0) }
        guard values.count == 4 else { throw Failure(description: "RECTS \(id) \(number): \(line)") }
        return try request("SELECT \(id) \(values[0] + values[2] / 2) \(values[1] + values[3] / 2)").last
    }
}

// LineFields.swift: the key=value fields of a reply or event line.

/// `key=value` fields of a line (a value runs to the next space).
func fields(_ line: String) -> [String: String] {
    var result: [String: String] = [:]
    for token in line.split(separator: " ") {
        if let equals = token.firstIndex(of: "=") {
            result[String(token[..<equals])] = String(token[token.index(after: equals)...])
        }
    }
    return result
}

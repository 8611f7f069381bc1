// SampleText.swift: the documents the scenarios put.

/// Plain ASCII English prose, so that every byte offset is a UTF-16 offset
/// and a grapheme boundary, and so that a scenario can tell a letter from a
/// space when it picks points to tap.
enum SampleText {
    static let first = """
    The lamp on the desk was still warm when she came back. Nobody had touched the book, \
    but the page had turned on its own. She read the first line twice. It said what she \
    had feared: the river would rise before morning. Outside, the wind moved the shutters \
    in slow, patient knocks. She marked the place with a pencil and kept reading.
    """

    static let second = """
    Morning came grey and quiet over the flooded fields. The road to the village was gone, \
    and with it the bridge her father built. Still, the house stood. She opened the window \
    and counted the roofs she could see. There were eleven. By noon the water had begun to \
    fall, slowly, the way it always had.
    """

    /// At least `graphemes` characters of prose (whole copies of ``first``).
    static func long(graphemes: Int) -> String {
        let copies = max(1, graphemes / first.utf8.count + 1)
        return Array(repeating: first, count: copies).joined(separator: " ")
    }
}

// ReadmeSnippet.swift: the SDK example of examples/SDK-README-section.md, compiled.
//
// ReadmeSnippetTests checks that the markdown holds exactly the lines
// between the markers below (without the function's indentation).

import LecternClient

func readmeSnippet() async throws {
    // README-BEGIN
    let lectern = try await LecternConnection.connect(host: "127.0.0.1", port: 7878)
    try await lectern.hello(name: "my-reader", units: .utf16)
    try await lectern.put("intro", text: "Dr. Smith arrived at 5 p.m. today. He was late!")
    try await lectern.view("intro", ViewOptions(width: 200, size: 17))
    if case .hit(let highlight, _, _, _) = try await lectern.tap("intro", at: Point(x: 30, y: 10)) {
        print(highlight.sentence.text, highlight.rects)  // one rect per line of the sentence
    }
    for try await case .tick(let tick) in try await lectern.type("intro") {
        print(tick.end, "of", tick.total)  // reveal text up to tick.end
    }
    // README-END
}

/// The "Drawing it yourself" bullet's names, compiled.
func readmeRunsSnippet(_ lectern: LecternConnection) async throws {
    let text = try await lectern.get("intro").text
    let layout = try await lectern.lineRuns(of: "intro")
    for line in layout.lines {
        for run in line.runs {
            let face = layout.fonts[run.font]
            let characters = text.range(run.range, in: lectern.units).map { text[$0] }
            print(face.family, face.file, face.faceIndex, characters ?? "", run.size, run.direction, run.x, line.baseline)
        }
    }
    print(try await lectern.get("intro").info.rules ?? "generic")
}

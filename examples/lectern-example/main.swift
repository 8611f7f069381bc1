// lectern-example: the Lectern story from Swift, against a running lecternd.
//
//   lecternd --memory &          # or any running daemon
//   swift run lectern-example [--port 7878]
//   swift run lectern-example --file examples/samples/japanese.txt --lang ja
//
// Puts a Korean paragraph (or a file's text), lays it out 320 points wide, taps a point and
// prints the sentence under it with its highlight rects and outline,
// attaches a 30×30 box after the last word and prints where it landed,
// then plays a typewriter reveal of the paragraph in the terminal.

import Foundation
import LecternClient

/// The text put when no `--file` is given.
let koreanParagraph = "아침 일찍 도서관에 갔다. 창가 자리에 앉아 오래된 소설을 펼쳤다 첫 문장부터 마음이 설렜다. "
    + "점심 무렵 친구가 와서 \"같이 밥 먹을래?\"라고 물었다. 우리는 근처 식당에서 국수를 먹었다."

func run(_ options: ExampleOptions) async throws {
    let lectern = try await LecternConnection.connect(to: options.endpoint, timeout: .seconds(5))
    defer { lectern.close() }
    let hello = try await lectern.hello(name: "lectern-example", units: .utf16)
    print("connected to \(hello.server) at \(lectern.endpoint) as connection \(hello.connection), offsets in \(hello.units)")

    // Sent as it is: a final line end closes the last paragraph, and the box glued to the end follows the last word.
    let paragraph = try options.file.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? koreanParagraph
    let language = options.language ?? (options.file == nil ? "ko" : nil)
    let document = try await lectern.put("example", text: paragraph, language: language)
    print("PUT example: \(document.sentences) sentences, \(document.length) UTF-16 units, language \(document.language)")

    let view = try await lectern.view("example", ViewOptions(width: 320, size: 18))
    print("VIEW: \(view.lines) lines, \(view.height) pt tall, font \(view.font)")

    let point = Point(x: 60, y: 30)
    switch try await lectern.tap("example", at: point) {
    case .hit(let highlight, let offset, let side, _):
        print("TAP \(point): sentence \(highlight.sentence.number), caret offset \(offset) (\(side))")
        print("  text:    \(highlight.sentence.text)")
        if let range = paragraph.range(highlight.sentence.content, in: lectern.units) {
            print("  String.Index range gives back: \(paragraph[range])")
        }
        for (line, rect) in highlight.rects.enumerated() { print("  rect \(line):  \(rect)") }
        for polygon in highlight.outline.polygons { print("  outline: \(polygon.map(\.description).joined(separator: " "))") }
    case .attachment(let name, _, _):
        print("TAP \(point): attachment \(name)")
    case .miss(let distance, let nearest):
        print("TAP \(point): missed by \(distance) pt; nearest sentence \(nearest)")
    }

    let box = try await lectern.attach("example", name: "animation", at: .end, width: 30, height: 30)
    if let rect = box.rect, let line = box.line {
        print("ATTACH 30×30 after the last word: offset \(box.offset), line \(line), rect \(rect)")
    }

    let text = try await lectern.get("example").text
    print("TYPE at \(options.charactersPerSecond) graphemes per second:\n")
    let reveal = try await lectern.type("example", TypewriterOptions(pace: .charactersPerSecond(options.charactersPerSecond)))
    let ticks = try await TerminalTypewriter(text: text, units: lectern.units).play(reveal)
    print("\n\(ticks) ticks for \(reveal.graphemes) graphemes")
    try await lectern.delete("example")
}

var options: ExampleOptions?
do {
    let parsed = try ExampleOptions(arguments: Array(CommandLine.arguments.dropFirst()))
    options = parsed
    if parsed.wantsHelp {
        print(ExampleOptions.help)
        exit(0)
    }
    try await run(parsed)
} catch {
    let message = ExampleOptions.fileErrorMessage(error, file: options?.file) ?? "\(error)"
    FileHandle.standardError.write(Data("lectern-example: \(message)\n".utf8))
    exit(1)
}

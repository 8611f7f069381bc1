// PortabilityTests.swift: the SDK's closure (LecternClient and every target it depends on) can be added by an Apple-platform app.

import Foundation
import Testing

/// An iOS app adds LecternClient by version, so everything it builds must
/// build there: no unsafe flags (SwiftPM refuses them in a dependency pinned
/// by version), no platform C library imported outside its own
/// `#if canImport`, and no language feature newer than the toolchain that
/// Package.swift and the README state. We cannot compile for Darwin on
/// Linux, so these read Package.swift and the sources.
@Suite struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Modules that exist on some platforms only: importable only under `#if canImport(<that module>)`.
    static let platformModules: Set<String> = ["Glibc", "Musl", "Android", "Bionic", "Darwin", "WinSDK", "ucrt", "WASILibc"]
    /// Modules that every platform has, importable anywhere.
    static let everywhereModules: Set<String> = ["Swift", "Foundation", "Dispatch"]
    /// Language features newer than Swift 6.0, with the version that brought them.
    static let newerFeatures: [(pattern: String, version: String)] = [
        (#"\bInlineArray\b"#, "6.2"), (#"\b(Mutable|Raw|Output|UTF8)?Span\s*<"#, "6.2"), (#"\bRawSpan\b"#, "6.2"),
        (#"@_?lifetime\b"#, "6.2"), (#"nonisolated\s*\(\s*nonsending\s*\)"#, "6.2"), (#"@concurrent\b"#, "6.2"),
    ]

    static func packageManifest() throws -> Manifest {
        try Manifest(String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// The targets LecternClient builds: itself and its dependencies, transitively.
    static func closure(_ manifest: Manifest) throws -> [Manifest.Target] {
        var names = ["LecternClient"]
        var seen: Set<String> = []
        var targets: [Manifest.Target] = []
        while let name = names.popLast() {
            guard seen.insert(name).inserted else { continue }
            let target = try #require(manifest.targets[name], "Package.swift declares no target \(name)")
            targets.append(target)
            names += target.dependencies
        }
        return targets
    }

    @Test func theClosureIsLecternClientLecternProtocolAndLecternGeometry() throws {
        // Not a rule, a tripwire: a new member of the closure gets the checks
        // below too; this line only says who they ran on.
        let names = try Self.closure(Self.packageManifest()).map(\.name)
        #expect(Set(names) == ["LecternClient", "LecternProtocol", "LecternGeometry"])
    }

    /// The SDK and the daemon's layout share one Rect, Point and EdgeInsets
    /// (LecternGeometry): no other module of Sources/ declares its own.
    @Test func geometryTypesAreDeclaredOnlyInLecternGeometry() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        var declarations: [String: [String]] = [:]
        for file in try Self.swiftFiles(in: sources) {
            let code = Self.strippingComments(try String(contentsOf: file, encoding: .utf8))
            for name in ["Rect", "Point", "EdgeInsets"]
            where code.range(of: #"\b(struct|class|enum)\s+\#(name)\b"#, options: .regularExpression) != nil {
                declarations[name, default: []].append(file.path.replacingOccurrences(of: sources.path + "/", with: ""))
            }
        }
        for name in ["Rect", "Point", "EdgeInsets"] {
            #expect(declarations[name] == ["LecternGeometry/\(name).swift"], "\(name) is declared in \(declarations[name] ?? [])")
        }
    }

    @Test func noTargetOfTheClosureHasUnsafeFlags() throws {
        let manifest = try Self.packageManifest()
        let unsafeSettings = manifest.unsafeSettingNames
        for target in try Self.closure(manifest) {
            #expect(target.kind == "target", "\(target.name) is a .\(target.kind), not a Swift target an app can build")
            #expect(!target.declaration.contains("unsafeFlags"), "\(target.name) has unsafeFlags")
            for name in unsafeSettings {
                #expect(target.declaration.range(of: #"\b\#(name)\b"#, options: .regularExpression) == nil,
                        "\(target.name) uses \(name), which holds unsafeFlags")
            }
        }
    }

    @Test func platformModulesAreImportedOnlyUnderTheirCanImport() throws {
        let closure = try Self.closure(Self.packageManifest())
        let closureNames = Set(closure.map(\.name))
        var files = 0
        for target in closure {
            for file in try Self.swiftFiles(in: Self.root.appendingPathComponent(target.path)) {
                files += 1
                let name = "\(target.path)/\(file.lastPathComponent)"
                for problem in Self.importProblems(try String(contentsOf: file, encoding: .utf8), allowed: closureNames) {
                    Issue.record("\(name): \(problem)")
                }
            }
        }
        #expect(files > 10)
    }

    @Test func theCheckCatchesAnUnguardedImport() {
        #expect(!Self.importProblems("import Glibc\n", allowed: []).isEmpty)
        #expect(!Self.importProblems("#if canImport(Darwin)\nimport Glibc\n#endif\n", allowed: []).isEmpty)
        #expect(!Self.importProblems("#if canImport(Glibc)\n#else\nimport Glibc\n#endif\n", allowed: []).isEmpty)
        #expect(!Self.importProblems("#if os(Linux)\nimport Glibc\n#endif\n", allowed: []).isEmpty)
        #expect(!Self.importProblems("@preconcurrency import CUV\n", allowed: []).isEmpty)
        #expect(Self.importProblems(
            "import Foundation\n#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n// import Glibc\n",
            allowed: []).isEmpty)
        let manifest = Manifest("""
            // swift-tools-version:6.0
            let hot: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"])]
            // A comment (with a parenthesis.
            let hotter = hot + [.define("Y")]

            let safe: [SwiftSetting] = [.define("Z")]
            let package = Package(targets: [
                .target(name: "A", dependencies: ["B", .target(name: "C")], swiftSettings: hotter),
                .target(
                    name: "B", /* ) */ swiftSettings: [.define(")")]),
                .target(name: "C", path: "Elsewhere/C"),
            ])
            """)
        #expect(manifest.toolsVersion == "6.0")
        #expect(manifest.unsafeSettingNames == ["hot", "hotter"])
        #expect(manifest.targets["A"]?.declaration.contains("hotter") == true)
        #expect(manifest.targets["A"]?.dependencies == ["B", "C"])
        #expect(manifest.targets["B"]?.declaration.hasSuffix(#"[.define(")")])"#) == true)
        #expect(manifest.targets["C"]?.path == "Elsewhere/C")
        #expect(manifest.targets["B"]?.path == "Sources/B")
    }

    @Test func theClosureUsesOnlyTheStatedToolchainsFeatures() throws {
        let manifest = try Self.packageManifest()
        let stated = try #require(manifest.toolsVersion, "Package.swift states no swift-tools-version")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("Swift toolchain (\(stated) or later)"), "README and Package.swift state different minimum toolchains")
        for target in try Self.closure(manifest) {
            for file in try Self.swiftFiles(in: Self.root.appendingPathComponent(target.path)) {
                let code = Self.strippingComments(try String(contentsOf: file, encoding: .utf8))
                for feature in Self.newerFeatures where Self.version(feature.version, isNewerThan: stated) {
                    #expect(code.range(of: feature.pattern, options: .regularExpression) == nil,
                            "\(target.path)/\(file.lastPathComponent) uses \(feature.pattern) (Swift \(feature.version)), newer than \(stated)")
                }
            }
        }
    }

    // MARK: Reading sources

    static func swiftFiles(in directory: URL) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// What is wrong with the imports of `source`: a platform module not
    /// directly under `#if canImport(<it>)` or `#elseif canImport(<it>)`,
    /// or a module that is neither in `allowed` nor on every platform.
    static func importProblems(_ source: String, allowed: Set<String>) -> [String] {
        var problems: [String] = []
        // The condition of each open #if block's active branch ("" for #else).
        var conditions: [String] = []
        for rawLine in strippingComments(source).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                conditions.append(String(line.dropFirst(4)))
            } else if line.hasPrefix("#elseif ") {
                if !conditions.isEmpty { conditions[conditions.count - 1] = String(line.dropFirst(8)) }
            } else if line == "#else" || line.hasPrefix("#else ") {
                if !conditions.isEmpty { conditions[conditions.count - 1] = "" }
            } else if line.hasPrefix("#endif") {
                _ = conditions.popLast()
            } else if let module = importedModule(line) {
                if platformModules.contains(module) {
                    let guarded = conditions.last.map { $0.replacingOccurrences(of: " ", with: "") == "canImport(\(module))" } ?? false
                    if !guarded { problems.append("`import \(module)` outside `#if canImport(\(module))`") }
                } else if !everywhereModules.contains(module) && !allowed.contains(module) {
                    problems.append("imports \(module), which is not in the SDK's closure")
                }
            }
        }
        return problems
    }

    /// The module an import line imports (`import Glibc`, `@preconcurrency public import struct Foundation.Date`).
    static func importedModule(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
            words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains($0) })
        else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
        var path = words[index + 1]
        if kinds.contains(path), index + 2 < words.count { path = words[index + 2] }
        return path.split(separator: ".").first.map(String.init)
    }

    /// `source` with comments and the contents of string literals blanked (line breaks kept).
    static func strippingComments(_ source: String) -> String {
        String(Manifest.scan(source).map { $0.isCode || $0.character == "\n" ? $0.character : " " })
    }

    /// Whether dotted version `a` is newer than `b` (6.2 > 6.0, 6.10 > 6.9).
    static func version(_ a: String, isNewerThan b: String) -> Bool {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return p > q }
        }
        return false
    }

    // MARK: Reading Package.swift

    /// Package.swift read as text: enough of it to find each target's
    /// declaration (from `.target(` to its closing parenthesis), its
    /// dependencies, and the top-level `let`s that targets refer to.
    struct Manifest {
        struct Target {
            let kind: String
            let name: String
            /// The whole `.target(…)` expression.
            let declaration: String
            /// Names in its `dependencies:` list (a plain string, `.target(name:)` or `.product(name:)`).
            let dependencies: [String]
            let path: String
        }

        let text: String
        var targets: [String: Target] = [:]
        /// `let name … = …` at the start of a line, outside `Package(…)`, up to the next blank line.
        var topLevelDeclarations: [String: String] = [:]
        var toolsVersion: String?

        init(_ text: String) {
            self.text = text
            if let match = text.range(of: #"swift-tools-version:\s*[0-9.]+"#, options: .regularExpression) {
                toolsVersion = text[match].split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
            }
            let characters = Self.scan(text)
            let code = String(characters.map { $0.isCode ? $0.character : " " })
            let chars = Array(text)
            // Targets: `.<kind>(` followed by `name: "X"`, up to the matching `)`.
            let kinds = ["target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "plugin", "macro"]
            let codeChars = Array(code)
            var i = 0
            while i < codeChars.count {
                guard codeChars[i] == ".", let kind = kinds.first(where: { Self.matches(codeChars, at: i + 1, "\($0)(") }) else {
                    i += 1
                    continue
                }
                let open = i + 1 + kind.count
                var depth = 0
                var close = open
                while close < codeChars.count {
                    if codeChars[close] == "(" { depth += 1 }
                    if codeChars[close] == ")" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    close += 1
                }
                let declaration = String(chars[i..<min(close + 1, chars.count)])
                let body = String(codeChars[open..<min(close + 1, codeChars.count)])
                if let name = Self.firstString(after: #"^\(\s*name:\s*"#, in: declaration.dropFirst(1 + kind.count)) {
                    let path = Self.firstString(after: #"\bpath:\s*"#, in: Substring(declaration)) ?? "Sources/\(name)"
                    targets[name] = Target(
                        kind: kind, name: name, declaration: declaration,
                        dependencies: Self.dependencies(declaration: declaration, code: body, offset: open - i), path: path)
                }
                i = close + 1
            }
            // Top-level lets.
            var current: (name: String, text: String)?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("let package") { current = nil; break }
                if line.hasPrefix("let ") || line.hasPrefix("var ") {
                    let name = line.dropFirst(4).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    current = (String(name), String(line))
                } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                    current = nil
                } else if current != nil {
                    current?.text += "\n" + line
                }
                if let current { topLevelDeclarations[current.name] = current.text }
            }
        }

        /// The top-level settings (such as `releaseHotPath`) that hold unsafe
        /// flags, directly or through another such setting.
        var unsafeSettingNames: Set<String> {
            var names = Set(topLevelDeclarations.filter { $0.value.contains("unsafeFlags") }.keys)
            while true {
                let more = topLevelDeclarations.filter { entry in
                    !names.contains(entry.key)
                        && names.contains { entry.value.range(of: #"\b\#($0)\b"#, options: .regularExpression) != nil }
                }
                if more.isEmpty { return names }
                names.formUnion(more.keys)
            }
        }

        /// The strings of `dependencies: [ … ]` in a declaration (`code` is
        /// it with comments and strings blanked, from `offset`).
        static func dependencies(declaration: String, code: String, offset: Int) -> [String] {
            guard let start = code.range(of: #"\bdependencies:\s*\["#, options: .regularExpression) else { return [] }
            let codeChars = Array(code)
            var index = code.distance(from: code.startIndex, to: start.upperBound) - 1
            var depth = 0
            let first = index
            while index < codeChars.count {
                if codeChars[index] == "[" { depth += 1 }
                if codeChars[index] == "]" {
                    depth -= 1
                    if depth == 0 { break }
                }
                index += 1
            }
            let list = String(Array(declaration)[(offset + first)..<min(offset + index, declaration.count)])
            // Every string literal in the list, except the `package:` of a .product.
            let withoutPackages = list.replacingOccurrences(of: #"package:\s*"[^"]*""#, with: "", options: .regularExpression)
            return matches(of: #""([^"]*)""#, in: withoutPackages)
        }

        static func firstString(after prefix: String, in text: Substring) -> String? {
            guard let match = text.range(of: prefix + #""[^"]*""#, options: .regularExpression) else { return nil }
            return text[match].split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }

        static func matches(of pattern: String, in text: String) -> [String] {
            var found: [String] = []
            var rest = text[...]
            while let match = rest.range(of: pattern, options: .regularExpression) {
                found.append(String(rest[match].dropFirst().dropLast()))
                rest = rest[match.upperBound...]
            }
            return found
        }

        static func matches(_ characters: [Character], at index: Int, _ word: String) -> Bool {
            let word = Array(word)
            guard index + word.count <= characters.count else { return false }
            return Array(characters[index..<(index + word.count)]) == word
        }

        /// Each character of Swift source, marked as code or as part of a
        /// comment or string literal (strings without interpolation nesting,
        /// which neither Package.swift nor a module's imports need).
        static func scan(_ source: String) -> [(character: Character, isCode: Bool)] {
            let chars = Array(source)
            var out: [(character: Character, isCode: Bool)] = []
            out.reserveCapacity(chars.count)
            var i = 0
            while i < chars.count {
                let c = chars[i], next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                if c == "/" && next == "/" {
                    while i < chars.count && chars[i] != "\n" { out.append((chars[i], false)); i += 1 }
                } else if c == "/" && next == "*" {
                    var depth = 0
                    repeat {
                        if chars[i] == "/" && i + 1 < chars.count && chars[i + 1] == "*" { depth += 1; out += [(chars[i], false), (chars[i + 1], false)]; i += 2; continue }
                        if chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/" { depth -= 1; out += [(chars[i], false), (chars[i + 1], false)]; i += 2; continue }
                        out.append((chars[i], false))
                        i += 1
                    } while i < chars.count && depth > 0
                } else if c == "\"" {
                    // A string literal; its quotes count as code so that `"…"` stays findable.
                    let triple = i + 2 < chars.count && chars[i + 1] == "\"" && chars[i + 2] == "\""
                    let quote = triple ? 3 : 1
                    for k in 0..<quote { out.append((chars[i + k], true)) }
                    i += quote
                    while i < chars.count {
                        if chars[i] == "\\" && i + 1 < chars.count { out += [(chars[i], false), (chars[i + 1], false)]; i += 2; continue }
                        if chars[i] == "\"" && (!triple || (i + 2 < chars.count && chars[i + 1] == "\"" && chars[i + 2] == "\"")) {
                            for k in 0..<quote { out.append((chars[i + k], true)) }
                            i += quote
                            break
                        }
                        out.append((chars[i], chars[i] == "\n"))
                        i += 1
                    }
                } else {
                    out.append((c, true))
                    i += 1
                }
            }
            return out
        }
    }
}

// HyphenationDictionary+Unsafe.swift: the one place LecternHyphen touches
// libhyphen's memory.
//
// Invariants (HyphenationTests checks them against PyHyphen, libhyphen's
// own code built on its own, and by hyphenating from many threads at once):
// - `dictionary` is loaded in `init` and freed in `deinit`, once; libhyphen
//   only reads it while hyphenating, so concurrent calls are safe.
// - The word is passed in the dictionary's character set (iconv for a
//   one-byte set), and `hyphens` has its byte count + 5 bytes, as
//   libhyphen requires;
//   the spelling-change arrays (`rep`, `pos`, `cut`) it may allocate are
//   freed here, each entry and the arrays, before returning.
import CHyphen
import Glibc

extension HyphenationDictionary {
    /// Loads the file; nil if libhyphen cannot read it as a dictionary.
    convenience init?(path: String) {
        guard let raw = hnj_hyphen_load(path) else { return nil }
        self.init(path: path, dictionary: OpaquePointer(raw))
    }

    func freeDictionary() { hnj_hyphen_free(UnsafeMutablePointer<HyphenDict>(dictionary)) }

    /// Scalar positions (1...n-1) after which `lower` may break.
    ///
    /// The word goes to libhyphen in the dictionary's character set (its
    /// first line: UTF-8, or a one-byte set such as ISO8859-1 or KOI8-R);
    /// either way libhyphen's marks come back one per character, so mark
    /// `i` belongs to scalar `i`.
    func hyphenate(_ lower: [Unicode.Scalar], leftMinimum: Int, rightMinimum: Int) -> Set<Int> {
        let dict = UnsafeMutablePointer<HyphenDict>(dictionary)
        guard let bytes = encoded(lower, utf8: dict.pointee.utf8 != 0) else { return [] }
        let count = bytes.count
        var hyphens = [CChar](repeating: 0, count: count + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var pos: UnsafeMutablePointer<Int32>?
        var cut: UnsafeMutablePointer<Int32>?
        let status = bytes.withUnsafeBufferPointer { word in
            hyphens.withUnsafeMutableBufferPointer { marks in
                hnj_hyphen_hyphenate3(dict, word.baseAddress, Int32(count), marks.baseAddress, nil, &rep, &pos, &cut,
                                      Int32(leftMinimum), Int32(rightMinimum), 2, 2)
            }
        }
        defer {
            if let rep {
                for index in 0..<count { free(rep[index]) }
                free(rep)
            }
            free(pos)
            free(cut)
        }
        guard status == 0 else { return [] }
        var breaks = Set<Int>()
        for index in 0..<(lower.count - 1) where hyphens[index] & 1 == 1 {
            if let rep, rep[index] != nil { continue }  // a spelling change: not standard hyphenation
            breaks.insert(index + 1)
        }
        return breaks
    }

    /// The word in the dictionary's character set; nil if a letter has no
    /// one-byte form there.
    private func encoded(_ lower: [Unicode.Scalar], utf8: Bool) -> [CChar]? {
        if utf8 { return String(String.UnicodeScalarView(lower)).utf8.map { CChar(bitPattern: $0) } }
        let dict = UnsafeMutablePointer<HyphenDict>(dictionary)
        let charset = withUnsafeBytes(of: dict.pointee.cset) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 && $0 != 10 && $0 != 13 }), as: UTF8.self)
        }
        let converter = iconv_open(charset, "UTF-8")
        guard let converter, Int(bitPattern: converter) != -1 else { return nil }
        defer { iconv_close(converter) }
        var result: [CChar] = []
        for scalar in lower {
            var input = Array(String(scalar).utf8).map { CChar(bitPattern: $0) }
            var output = [CChar](repeating: 0, count: 4)
            var inLeft = input.count, outLeft = output.count
            let converted = input.withUnsafeMutableBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                    var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                    return iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                }
            }
            guard converted != -1, inLeft == 0, output.count - outLeft == 1 else { return nil }
            result.append(output[0])
        }
        return result
    }
}

// Geometry.swift: Rect, Point and EdgeInsets (defined once, in LecternGeometry) and their wire forms.

// Re-exported, so that an app that imports LecternClient writes `Rect`,
// `Point` and `EdgeInsets` as before; the daemon's layout uses the same types.
@_exported import LecternGeometry

extension Rect {
    /// Parses the wire form `x,y,w,h`.
    init?(wire: some StringProtocol) {
        let parts = wire.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else { return nil }
        self.init(x: x, y: y, width: w, height: h)
    }
}

extension EdgeInsets {
    /// `top,left,bottom,right`, as the `insets=` option takes it.
    var wire: String { [top, left, bottom, right].map(WireValue.number).joined(separator: ",") }
}

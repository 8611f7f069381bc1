// GeometryNumber.swift: how the geometry types spell their numbers for people.

/// The protocol's spelling of a coordinate (protocol/PROTOCOL.md, "Values"),
/// used by the descriptions of ``Rect`` and ``Point`` and by the SDK's
/// request arguments: at most two decimals, trailing zeros dropped
/// (`180.5`, `17`, `-3.25`).
package enum GeometryNumber {
    /// `value` rounded to hundredths and written without trailing zeros;
    /// magnitudes of 10¹³ and more (and non-finite values) as Swift writes them.
    ///
    /// - Complexity: O(1).
    package static func spelled(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        guard hundredths.magnitude < 1e15 else { return String(value) }
        let whole = Int64(hundredths)
        let sign = whole < 0 ? "-" : ""
        let units = whole.magnitude / 100
        let fraction = whole.magnitude % 100
        if fraction == 0 { return "\(sign)\(units)" }
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return "\(sign)\(units).\(digits)"
    }
}

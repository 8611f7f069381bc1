// Format.swift: numbers as the reports print them.

import Foundation

enum Format {
    /// `value` with `digits` decimals ("12.345").
    static func fixed(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// Nanoseconds as milliseconds with three decimals ("0.412").
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        fixed(Double(nanoseconds) / 1e6, 3)
    }
}

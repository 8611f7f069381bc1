// ProcessIdentity.swift: keeps concurrent runs' document ids apart.

import Glibc

enum ProcessIdentity {
    /// This process's id, in document ids so two runs never share a document.
    static let current = Int(getpid())
}

// Geometry.swift: Rect, Point and EdgeInsets, shared with the SDK through LecternGeometry.

// Re-exported: every user of the layout speaks in these types.
@_exported import LecternGeometry

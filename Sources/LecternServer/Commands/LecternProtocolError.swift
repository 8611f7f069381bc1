// LecternProtocolError.swift: protocol errors the server sends in several places.

import LecternProtocol

/// Errors made in more than one handler, worded once.
enum LecternProtocolError {
    static func invalidText(byteOffset: Int) -> ProtocolError {
        ProtocolError(.invalidUTF8, "document text is not valid UTF-8 at byte \(byteOffset); nothing was stored")
    }

    static let textTooLong = ProtocolError(.payloadTooLarge, "document text is too long to index")

    static func noDocument(_ id: String) -> ProtocolError {
        ProtocolError(.noDocument, "no document '\(id)' (LIST shows the documents)")
    }

    static func noView(_ id: String) -> ProtocolError {
        ProtocolError(.noView, "this connection has no view of '\(id)'; send VIEW \(id) width=<points> first")
    }
}

extension ProtocolError {
    /// `error` as the client will see it: itself if it is a protocol error
    /// (handlers throw those), otherwise `ERR ARGS` with its description.
    init(reporting error: Error) {
        if let miss = error as? DocumentMiss {
            // Only the request gate loads a missing document; deeper down
            // (a write's completion) a miss means it went meanwhile.
            self = LecternProtocolError.noDocument(miss.id)
            return
        }
        self = error as? ProtocolError ?? ProtocolError(.arguments, "\(error)")
    }
}

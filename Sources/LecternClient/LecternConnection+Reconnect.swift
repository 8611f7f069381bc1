// LecternConnection+Reconnect.swift: re-establishing a lost connection and its session.

extension LecternConnection {
    /// Retries with backoff until connected (then restores the session),
    /// the policy gives up, or the connection is closed.
    ///
    /// Each attempt is one round through ``nodes``, starting with the node
    /// after the one that was lost and ending with the lost one (with one
    /// node, just that node): the round waits the policy's delay first, then
    /// tries its nodes one after another without waiting, so a dead node
    /// costs one refused connect (or the connect timeout), not a backoff.
    ///
    /// The retry loop holds the connection only weakly between nodes, so
    /// an app that drops its last reference ends the retrying too.
    ///
    /// - Complexity: at most `maximumAttempts × nodes.count` connects.
    func startReconnecting(policy: ReconnectPolicy) {
        let nodes = self.nodes
        let lost = withLock { $0.node }
        let timeout = connectTimeout
        Task { [weak self] in
            var attempt = 0
            while policy.maximumAttempts.map({ attempt < $0 }) ?? true {
                attempt += 1
                let delay = policy.delay(before: attempt)
                self?.emit(.reconnecting(attempt: attempt, delay: delay))
                try? await Task.sleep(for: delay)
                for step in 1...nodes.count {
                    let node = (lost + step) % nodes.count
                    guard let connection = self else { return }
                    if connection.withLock({ $0.closing }) { return connection.finishForGood(.closed) }
                    guard let socket = try? await Self.openSocket(nodes[node], timeout: timeout) else { continue }
                    if connection.withLock({ $0.closing }) { return connection.finishForGood(.closed) }
                    connection.install(socket, node: node)
                    if let failures = await connection.restore(policy: policy) {
                        connection.emit(.reconnected(failures: failures))
                    }
                    return
                }
            }
            self?.finishForGood(.connectionLost)
        }
    }

    /// Repeats HELLO and AUTH, runs the policy's `prepare`, then repeats every VIEW
    /// and WATCH. What the daemon refuses is forgotten and returned; if the
    /// connection drops again meanwhile, returns `nil` (the next reconnect
    /// restores from the same memory).
    private func restore(policy: ReconnectPolicy) async -> [RestoreFailure]? {
        let session = withLock { $0.session }
        var failures: [RestoreFailure] = []
        do {
            if session.saidHello {
                _ = try await hello(name: session.helloName, units: session.helloUnits)
            }
            if let token = session.authToken {
                do {
                    try await authenticate(token: token)
                } catch let error as LecternError where error.code != nil {
                    failures.append(RestoreFailure(request: "AUTH", error: error))
                }
            }
            if let prepare = policy.prepare {
                do {
                    try await prepare(self)
                } catch let error as LecternError where error.code != nil {
                    failures.append(RestoreFailure(request: "prepare", error: error))
                }
            }
            for (document, options) in session.views.sorted(by: { $0.key < $1.key }) {
                do {
                    _ = try await view(document, options)
                } catch let error as LecternError where error.code != nil {
                    failures.append(RestoreFailure(request: "VIEW \(document)", error: error))
                    withLock { _ = $0.session.views.removeValue(forKey: document) }
                }
            }
            for document in session.watches.sorted() {
                do {
                    _ = try await watch(document)
                } catch let error as LecternError where error.code != nil {
                    failures.append(RestoreFailure(request: "WATCH \(document)", error: error))
                    withLock { _ = $0.session.watches.remove(document) }
                }
            }
        } catch {
            return nil
        }
        return failures
    }
}

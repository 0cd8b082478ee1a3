import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A status code and body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// A single HTTP GET with a hard deadline and cooperative cancellation, on URLSession.
///
/// The deadline covers the whole exchange (connect, send, headers, body). A watchdog checks every 50 ms
/// whether the deadline has passed or `isCancelled()` turned true and then cancels the task, so the call
/// returns promptly even where URLSession's own timeouts are idle-based. Errors come back as
/// `WeatherError.unavailable` (network, timeout) or `.cancelled`, naming the URL.
public struct HTTPFetcher: Sendable {
    /// One ephemeral session for the process: no cookies, no cache, no credential storage.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = 120
        configuration.timeoutIntervalForResource = 120
        return URLSession(configuration: configuration)
    }()

    public var userAgent = "skillhost-weather/1.0"

    public init() {}

    public func get(_ url: URL, timeoutMs: Int, isCancelled: @escaping @Sendable () -> Bool = { false })
        async throws(WeatherError) -> HTTPResponse {
        let timeout = Double(timeoutMs) / 1000
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let state = FetchState()
        let result: Result<HTTPResponse, WeatherError> = await withCheckedContinuation { continuation in
            let task = Self.session.dataTask(with: request) { data, response, error in
                let outcome: Result<HTTPResponse, WeatherError>
                switch state.stopReason {
                case .timedOut?:
                    outcome = .failure(.unavailable("GET \(url.absoluteString) timed out after \(timeoutMs) ms"))
                case .cancelled?:
                    outcome = .failure(.cancelled("the weather request was cancelled (GET \(url.absoluteString))"))
                case nil:
                    if let error {
                        outcome = .failure(Self.describe(error, url: url, timeoutMs: timeoutMs))
                    } else if let http = response as? HTTPURLResponse {
                        outcome = .success(HTTPResponse(status: http.statusCode, body: data ?? Data()))
                    } else {
                        outcome = .failure(.unavailable("GET \(url.absoluteString) returned no HTTP response"))
                    }
                }
                state.finish()
                continuation.resume(returning: outcome)
            }
            state.start(task: task, deadline: Date().addingTimeInterval(timeout), isCancelled: isCancelled)
            task.resume()
        }
        return try result.get()
    }

    static func describe(_ error: any Error, url: URL, timeoutMs: Int) -> WeatherError {
        if let urlError = error as? URLError {
            if urlError.code == .timedOut {
                return .unavailable("GET \(url.absoluteString) timed out after \(timeoutMs) ms")
            }
            return .unavailable("GET \(url.absoluteString) failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
        return .unavailable("GET \(url.absoluteString) failed: \(error.localizedDescription)")
    }
}

/// Shared between the completion handler and the watchdog timer.
private final class FetchState: @unchecked Sendable {
    enum StopReason { case timedOut, cancelled }

    private let lock = NSLock()
    private var reason: StopReason?
    private var done = false
    private var timer: DispatchSourceTimer?

    var stopReason: StopReason? {
        lock.lock()
        defer { lock.unlock() }
        return reason
    }

    func start(task: URLSessionDataTask, deadline: Date, isCancelled: @escaping @Sendable () -> Bool) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let stop: StopReason? = Date() >= deadline ? .timedOut : (isCancelled() ? .cancelled : nil)
            guard let stop else { return }
            self.lock.lock()
            let shouldCancel = !self.done && self.reason == nil
            if shouldCancel { self.reason = stop }
            self.lock.unlock()
            if shouldCancel { task.cancel() }
        }
        lock.lock()
        self.timer = done ? nil : timer
        lock.unlock()
        if self.timer != nil { timer.resume() }
    }

    func finish() {
        lock.lock()
        done = true
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
    }
}

import HTTPServer
import SIWACore

/// The whole HTTP surface: `/mock/…` to the control API, everything else to Apple's endpoints.
/// Both share one `AppleIdentityProvider`, so control calls change what the Apple endpoints answer.
public struct MockServer: HTTPResponder {
    public let apple: AppleEndpoints
    public let control: ControlEndpoints

    public init(configuration: AppleEndpoints.Configuration) throws(ScenarioKeyError) {
        let apple = try AppleEndpoints(configuration: configuration)
        self.apple = apple
        self.control = ControlEndpoints(provider: apple.provider)
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.path.hasPrefix("/mock/") { return control.respond(to: request) }
        return apple.respond(to: request)
    }
}

package import HTTPTypes

extension HTTPRequest {
    /// The request's target as one absolute URL string (`scheme://authority/path?query`), for
    /// engines that take a URL; `nil` without a scheme or an authority.
    ///
    /// Built in one step with the room it needs reserved: every request goes through it.
    package var absoluteURLString: String? {
        guard let scheme, let authority else { return nil }
        let path = self.path ?? "/"
        var url = ""
        url.reserveCapacity(scheme.utf8.count + authority.utf8.count + path.utf8.count + 3)
        url += scheme
        url += "://"
        url += authority
        url += path
        return url
    }
}

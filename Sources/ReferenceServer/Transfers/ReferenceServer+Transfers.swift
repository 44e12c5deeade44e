extension ReferenceServer {
    /// Makes a new revision of the blob `/debug/blobs/{name}`: new bytes, a new `ETag` and a
    /// later `Last-Modified`, as if the file had been edited. A download resumed with the old
    /// validator then gets the whole new blob (200) instead of a range.
    /// - Parameter name: The blob's name.
    /// - Returns: The new revision's number.
    @discardableResult
    public func reviseBlob(named name: String) -> Int {
        blobCatalog.revise(name: name)
    }
}

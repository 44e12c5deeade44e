/// Whether request bodies appear in logs (the `curl` rendering at `.debug`), and how.
///
/// Bodies are never logged unless an app opts in, and then only through an allow-list: the
/// values of the JSON keys it names are shown, every other value is replaced. A request that
/// marks its body personal (``RequestOptions/bodyIsPersonalData``, which CLARITY's health
/// endpoints set) is never logged either way.
public enum BodyLogging: Sendable, Hashable {
    /// No body is logged: only its size. The default.
    case never
    /// JSON bodies are logged with only the values of these keys shown (any depth); other
    /// values are replaced, and bodies of other media types show only their size.
    case allowing(keys: Set<String>)
}

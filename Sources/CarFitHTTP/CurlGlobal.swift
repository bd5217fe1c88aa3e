import CCurl

/// libcurl's process-wide setup, done once before the first handle: a lazy static is
/// initialised exactly once even when many threads reach it together. It is never undone
/// (curl_global_cleanup is not safe while a host's other code may still use libcurl).
enum CurlGlobal {
    static let ready: Bool = curl_global_init(cf_curl_global_all()) == CURLE_OK
}

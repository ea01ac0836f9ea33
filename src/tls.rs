//! The process's TLS setup, shared by every HTTP client Herald builds (the notification
//! worker's, the bots').

/// Installs the process's TLS crypto provider (ring) for rustls, which every HTTP client
/// (reqwest, built with `rustls-no-provider` to avoid aws-lc's C build) needs before it is
/// built. Installing twice is harmless: the first one stays.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

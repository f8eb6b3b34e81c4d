//! Guest identities: display-name validation, bearer tokens from the OS RNG, and the SHA-256
//! under which a token is stored (the token itself never is).

use sha2::{Digest, Sha256};
use warroom_protocol::codes;

use crate::error::ApiError;

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Checks and trims a display name: 1–24 characters, letters, digits, spaces, `_`, `-`, `.`.
pub fn validate_name(raw: &str) -> Result<String, ApiError> {
    let name = raw.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(
            codes::INVALID_NAME,
            format!("a name has 1 to {MAX_NAME_CHARS} characters"),
        ));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.');
    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
        return Err(ApiError::bad_request(
            codes::INVALID_NAME,
            format!("a name may not contain {bad:?}: use letters, digits, spaces, _ - ."),
        ));
    }
    Ok(name.to_owned())
}

/// A fresh bearer token: 32 bytes from the OS RNG, as 64 hex digits.
pub fn new_token() -> Result<String, ApiError> {
    Ok(hex::encode(random_bytes()?))
}

/// 32 bytes from the OS RNG (tokens, match seeds).
pub fn random_bytes() -> Result<[u8; 32], ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(ApiError::internal)?;
    Ok(bytes)
}

/// What the database stores for a token: SHA-256, lowercase hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The token in an `Authorization: Bearer <token>` header value.
pub fn bearer_token(header: &str) -> Option<&str> {
    let token = header.strip_prefix("Bearer ")?.trim();
    (!token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(validate_name("  Ada Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(validate_name("zoë_1.x-y").unwrap(), "zoë_1.x-y");
        for bad in ["", "   ", "<script>", "a\u{0}b", &"x".repeat(25)] {
            assert_eq!(validate_name(bad).unwrap_err().code, codes::INVALID_NAME);
        }
        assert!(validate_name(&"é".repeat(24)).is_ok());
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn bearer_header_is_parsed() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Basic abc"), None);
    }
}

//! Guest identities: name validation and the case-folded key that makes names unique, bearer
//! tokens and recovery codes from the OS RNG, and the SHA-256 under which each is stored (the
//! token or code itself never is).

use sha2::{Digest, Sha256};
use warroom_protocol::codes;

use crate::error::ApiError;

/// Shortest name, in characters.
pub const MIN_NAME_CHARS: usize = 3;
/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// Checks a name and puts it in its stored form: trimmed, inner runs of spaces collapsed to one
/// (so two names cannot differ by invisible spacing), 3–24 characters, letters, digits, spaces,
/// `_`, `-`, `.`.
pub fn validate_name(raw: &str) -> Result<String, ApiError> {
    if let Some(bad) = raw.chars().find(|c| c.is_control()) {
        return Err(ApiError::bad_request(
            codes::INVALID_NAME,
            format!("a name may not contain {bad:?}: use letters, digits, spaces, _ - ."),
        ));
    }
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&count) {
        return Err(ApiError::bad_request(
            codes::INVALID_NAME,
            format!("a name has {MIN_NAME_CHARS} to {MAX_NAME_CHARS} characters"),
        ));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.');
    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
        return Err(ApiError::bad_request(
            codes::INVALID_NAME,
            format!("a name may not contain {bad:?}: use letters, digits, spaces, _ - ."),
        ));
    }
    Ok(name)
}

/// The form under which a name is unique: "Ada", "ADA" and "ada" are one name.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
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

/// Characters of a recovery code: Crockford's base 32 (no I, L, O, U: nothing to misread).
const RECOVERY_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters of a recovery code (5 bits each: 100 bits), shown in groups of five.
const RECOVERY_CHARS: usize = 20;

/// A fresh recovery code, e.g. `K7QD9-M2XHV-3CTR8-WZP4N`.
pub fn new_recovery_code() -> Result<String, ApiError> {
    let bytes = random_bytes()?;
    let mut code = String::with_capacity(RECOVERY_CHARS + RECOVERY_CHARS / 5);
    for (index, byte) in bytes.iter().take(RECOVERY_CHARS).enumerate() {
        if index > 0 && index % 5 == 0 {
            code.push('-');
        }
        // 256 is a multiple of 32, so the low five bits of a uniform byte are uniform.
        code.push(char::from(RECOVERY_ALPHABET[usize::from(byte & 31)]));
    }
    Ok(code)
}

/// What the database stores for a recovery code: SHA-256 of its canonical form, in which case,
/// spaces and dashes do not count and the letters people confuse with digits read as digits.
/// `None` when it cannot be a code at all.
pub fn recovery_hash(code: &str) -> Option<String> {
    let mut canonical = String::with_capacity(RECOVERY_CHARS);
    for c in code.chars() {
        let c = match c.to_ascii_uppercase() {
            ' ' | '-' => continue,
            'O' => '0',
            'I' | 'L' => '1',
            c if c.is_ascii() && RECOVERY_ALPHABET.contains(&(c as u8)) => c,
            _ => return None,
        };
        canonical.push(c);
    }
    (canonical.len() == RECOVERY_CHARS).then(|| token_hash(&canonical))
}

/// The token in an `Authorization: Bearer <token>` header value.
pub fn bearer_token(header: &str) -> Option<&str> {
    // The scheme is case-insensitive (RFC 9110 section 11.1): `bearer`, `BEARER` are the same.
    let (scheme, token) = header.trim_start().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(validate_name("  Ada   Lovelace ").unwrap(), "Ada Lovelace");
        assert_eq!(validate_name("zoë_1.x-y").unwrap(), "zoë_1.x-y");
        assert_eq!(validate_name("Bob").unwrap(), "Bob");
        assert_eq!(validate_name(" A  b ").unwrap(), "A b");
        for bad in [
            "",
            "   ",
            "Al",
            " A  ",
            "<script>",
            "<img src=x onerror=alert(1)>",
            "ab\u{0}c",
            "new\nline",
            &"x".repeat(25),
        ] {
            assert_eq!(validate_name(bad).unwrap_err().code, codes::INVALID_NAME);
        }
        assert!(validate_name(&"é".repeat(24)).is_ok());
    }

    #[test]
    fn names_are_one_name_whatever_their_case() {
        assert_eq!(name_key("Ada"), name_key("ADA"));
        assert_eq!(name_key("ÉMILE"), name_key("émile"));
        assert_ne!(name_key("Ada"), name_key("Adb"));
    }

    #[test]
    fn recovery_codes_are_random_and_forgiving_to_type() {
        let code = new_recovery_code().unwrap();
        assert_eq!(code.len(), 23, "{code}");
        assert_eq!(code.matches('-').count(), 3);
        assert_ne!(code, new_recovery_code().unwrap());
        let hash = recovery_hash(&code).unwrap();
        assert_eq!(recovery_hash(&code.to_lowercase()), Some(hash.clone()));
        assert_eq!(recovery_hash(&code.replace('-', " ")), Some(hash.clone()));
        assert_eq!(
            recovery_hash("O0000-IIIII-LLLLL-00000"),
            recovery_hash("00000-11111-11111-00000")
        );
        assert_ne!(hash, code);
        for bad in [
            "",
            "K7QD9",
            "K7QD9-M2XHV-3CTR8-WZP4N-X",
            "K7QD9-M2XHV-3CTR8-WZP4U",
            "é",
        ] {
            assert_eq!(recovery_hash(bad), None, "{bad:?}");
        }
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
        assert_eq!(bearer_token("bearer abc"), Some("abc"));
        assert_eq!(bearer_token("BEARER  abc "), Some("abc"));
        assert_eq!(bearer_token("Bearerabc"), None);
    }
}

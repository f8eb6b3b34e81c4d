//! A token bucket: a connection may send `burst` messages at once and `per_second` sustained.

use std::time::Instant;

/// One connection's message budget.
#[derive(Debug)]
pub struct RateLimiter {
    /// Messages it may send right now.
    tokens: f64,
    /// Largest budget.
    burst: f64,
    /// Budget regained per second.
    per_second: f64,
    /// When the budget was last topped up.
    last: Instant,
}

impl RateLimiter {
    /// A full bucket.
    pub fn new(per_second: u32, burst: u32) -> Self {
        RateLimiter {
            tokens: f64::from(burst.max(1)),
            burst: f64::from(burst.max(1)),
            per_second: f64::from(per_second),
            last: Instant::now(),
        }
    }

    /// Takes one message from the budget at time `now`; false when it is spent.
    pub fn allow(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_burst_is_allowed_then_the_sustained_rate() {
        let start = Instant::now();
        let mut limiter = RateLimiter::new(10, 5);
        assert!((0..5).all(|_| limiter.allow(start)));
        assert!(!limiter.allow(start));
        assert!(limiter.allow(start + Duration::from_millis(100)));
        assert!(!limiter.allow(start + Duration::from_millis(100)));
        assert!((0..5).all(|_| limiter.allow(start + Duration::from_secs(10))));
        assert!(!limiter.allow(start + Duration::from_secs(10)));
    }
}

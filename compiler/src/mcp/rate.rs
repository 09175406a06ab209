//! `surqlc mcp --rate-limit N/s --rate-burst B`: a token bucket per subject (the end user, or the bearer token's name), refilled at N per second up to B; per process, so N replicas admit up to N times as much.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many tool calls a subject may make: `per_second` on average, `burst` at once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: u32,
}

impl RateLimit {
    /// `N/s` (N > 0, a decimal allowed: `0.5/s`), with `burst` (default: N rounded up, at least 1).
    pub fn parse(value: &str, burst: Option<u32>) -> Result<RateLimit, String> {
        let bad = || format!("--rate-limit {value:?}: write calls per second as N/s, e.g. 5/s");
        let n: f64 = value
            .trim()
            .strip_suffix("/s")
            .ok_or_else(bad)?
            .trim()
            .parse()
            .map_err(|_| bad())?;
        if !(n.is_finite() && n > 0.0) {
            return Err(bad());
        }
        let burst = burst.unwrap_or(n.ceil() as u32).max(1);
        Ok(RateLimit { per_second: n, burst })
    }
}

/// Subjects kept; past it the buckets are forgotten all at once (each starts full again).
const KEPT: usize = 10_000;

/// The buckets, one per subject.
pub struct Limiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl Limiter {
    pub fn new(limit: RateLimit) -> Limiter {
        Limiter {
            limit,
            buckets: Mutex::default(),
        }
    }

    /// Takes one call from `subject`'s bucket, or says how long until one is there.
    pub fn take(&self, subject: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= KEPT && !buckets.contains_key(subject) {
            buckets.clear();
        }
        let burst = f64::from(self.limit.burst);
        let (tokens, last) = buckets.entry(subject.to_owned()).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*last).as_secs_f64() * self.limit.per_second).min(burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / self.limit.per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals_per_subject() {
        let limiter = Limiter::new(RateLimit::parse("1/s", Some(3)).unwrap());
        assert!((0..3).all(|_| limiter.take("customer:ann").is_ok()));
        let wait = limiter.take("customer:ann").unwrap_err();
        assert!(
            wait > Duration::from_millis(500) && wait <= Duration::from_secs(1),
            "{wait:?}"
        );
        assert!(limiter.take("customer:ben").is_ok(), "each subject has its own bucket");
        assert!(RateLimit::parse("5", None).is_err() && RateLimit::parse("0/s", None).is_err());
        assert_eq!(RateLimit::parse("2.5/s", None).unwrap().burst, 3);
    }
}

//! A token bucket per client IP, in memory.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

pub struct Limiter {
    burst: f64,
    per_second: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

/// Buckets kept before idle full ones are dropped.
const MAX_CLIENTS: usize = 10_000;

impl Limiter {
    pub fn new(burst: f64, per_second: f64) -> Limiter {
        Limiter {
            burst: burst.max(1.0),
            per_second: per_second.max(0.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for this client; `Err(seconds)` until one is available.
    pub fn check(&self, ip: IpAddr) -> Result<(), f64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&ip) {
            let (burst, rate) = (self.burst, self.per_second);
            buckets.retain(|_, (tokens, at)| *tokens + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (tokens, at) = buckets.entry(ip).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else if self.per_second > 0.0 {
            Err((1.0 - *tokens) / self.per_second)
        } else {
            Err(60.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_refusals() {
        let l = Limiter::new(3.0, 0.0);
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let other: IpAddr = "127.0.0.2".parse().unwrap();
        assert!(l.check(ip).is_ok());
        assert!(l.check(ip).is_ok());
        assert!(l.check(ip).is_ok());
        assert!(l.check(ip).is_err());
        assert!(l.check(other).is_ok());
    }
}

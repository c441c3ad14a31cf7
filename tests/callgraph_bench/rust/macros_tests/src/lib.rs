pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

pub fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

pub fn report(xs: &[u64]) -> String {
    let l = xs.iter().fold(1, |acc, &x| lcm(acc, x));
    let pairs = vec![gcd(xs[0], xs[1])];
    format!("lcm={} gcd={}", l, pairs[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small() {
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(lcm(4, 6), 12);
        assert!(report(&[4, 6]).starts_with("lcm=12"));
    }
}

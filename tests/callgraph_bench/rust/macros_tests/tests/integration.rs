use numtheory::{gcd, report};

#[test]
fn end_to_end() {
    assert_eq!(gcd(7, 5), 1);
    println!("{}", report(&[2, 3]));
}

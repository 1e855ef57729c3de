pub fn double(n: i32) -> i32 {
    n * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(2), 4);
    }

    // passes: it panics on purpose (printed with `cargo test -- --nocapture`)
    #[test]
    #[should_panic(expected = "attempt to divide by zero")]
    fn div_by_zero_panics() {
        let zero = super::double(0);
        let _ = 1 / zero;
    }
}

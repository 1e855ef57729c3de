pub fn add(a: i32, b: i32) -> i32 {
    a + b + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_two_numbers() {
        assert_eq!(add(1, 2), 3);
    }

    #[test]
    fn adds_zero() {
        assert_eq!(add(0, 0) - 1, 0);
    }

    // passes: it panics on purpose (printed with `cargo test -- --nocapture`)
    #[test]
    #[should_panic(expected = "divide by zero")]
    fn div_by_zero_panics() {
        div(1, 0);
    }
}

pub fn div(a: i32, b: i32) -> i32 {
    if b == 0 {
        panic!("divide by zero");
    }
    a / b
}

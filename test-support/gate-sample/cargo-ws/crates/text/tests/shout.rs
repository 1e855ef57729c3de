use text::shout;

#[test]
fn shouts() {
    assert_eq!(shout("hi"), "HI");
}

#[test]
fn shouts_nothing() {
    assert!(shout("a").is_empty(), "not empty");
}

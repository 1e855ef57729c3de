use fixture_project::four;

#[test]
fn test_cwd() {
    assert!(std::env::current_dir().is_ok());
}








#[test]
fn test_failure_assert() {
    // planted: 4 is not 5
    let five = 5;
    assert_eq!(four(), five, "this is an assertion");
}
















#[test]
fn test_flaky_mod_4() {
    let attempt: u32 = std::env::var("NEXTEST_ATTEMPT").ok().and_then(|a| a.parse().ok()).unwrap_or(1);
    // passes on the fourth try



    if attempt % 4 != 0 {
        panic!("Failed because attempt {} % 4 != 0", attempt);
    }
}

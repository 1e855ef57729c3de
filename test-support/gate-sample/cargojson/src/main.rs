fn main() {
    let count: u32 = "three";
    if (count > 0) {
        println!("{}", count);
    }
}

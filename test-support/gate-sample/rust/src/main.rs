fn main() {
    let unused = 1;
    let count = 3;
    if count == count {
        println!("{}", count);
    }
}

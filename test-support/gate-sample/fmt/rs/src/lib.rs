pub fn add(a:i32,b:i32)->i32{a+b}

pub fn sub(a: i32, b: i32) -> i32 {
    a - b
}

pub fn mul(a: i32, b: i32) -> i32 {
    a*b
}

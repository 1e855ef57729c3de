pub fn four() -> u32 { 4 }

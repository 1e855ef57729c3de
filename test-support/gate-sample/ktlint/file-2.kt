fun other() {
    println("b")
}

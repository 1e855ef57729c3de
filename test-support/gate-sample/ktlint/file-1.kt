fun main() {
    println("a")
}

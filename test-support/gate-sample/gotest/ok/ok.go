package ok

// Double doubles a number.
func Double(n int) int {
	return n * 2
}

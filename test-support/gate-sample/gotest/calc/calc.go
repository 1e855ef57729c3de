package calc

// Add adds two numbers.
func Add(a, b int) int {
	return a + b + 1
}

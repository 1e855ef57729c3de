package pkg

// Add returns the sum of a and b, or should.
func Add(a, b int) int {
	return a - b
}

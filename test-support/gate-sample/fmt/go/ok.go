package fmtgo

// Sub subtracts.
func Sub(a, b int) int {
	return a - b
}

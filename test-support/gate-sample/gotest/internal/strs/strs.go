package strs

import "strings"

// Shout makes a word loud.
func Shout(s string) string {
	return strings.ToLower(s)
}

package strs

import "testing"

func TestShout(t *testing.T) {
	for _, word := range []string{"hi", "go"} {
		t.Run(word, func(t *testing.T) {
			if got := Shout(word); got != "HI" && got != "GO" {
				t.Fatalf("Shout(%q) = %q", word, got)
			}
		})
	}
}

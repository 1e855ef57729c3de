package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("got %d, want 3", got)
	}
}

func TestSkipped(t *testing.T) {
	t.Skip("not yet")
}

func TestZero(t *testing.T) {
	if got := Add(0, 0); got != 1 {
		t.Fatalf("got %d, want 1", got)
	}
}

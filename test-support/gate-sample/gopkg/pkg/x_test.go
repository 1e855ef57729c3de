package pkg

import "testing"

func TestAdd(t *testing.T) {
	t.Errorf("got %d, want 2", Add(1, 1))
}

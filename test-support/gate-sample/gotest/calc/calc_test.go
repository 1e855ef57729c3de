package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 2); got != 3 {
		t.Errorf("Add(1, 2) = %d, want 3", got)
	}
}

func TestAddZero(t *testing.T) {
	if got := Add(0, 0) - 1; got != 0 {
		t.Errorf("Add(0, 0) - 1 = %d, want 0", got)
	}
}

func TestAddLogs(t *testing.T) {
	t.Logf("adding %d and %d", 2, 2)
	got := Add(2, 2)
	t.Log("computed", got)
	if got != 4 {
		t.Errorf("Add(2, 2) = %d, want 4", got)
	}
}

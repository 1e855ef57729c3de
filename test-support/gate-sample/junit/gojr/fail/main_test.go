package fail

import "testing"

func TestOne(t *testing.T) {
	t.Error("Error message")
	t.Error("Longer\nerror\nmessage.")
}

func TestTwo(t *testing.T) {}
